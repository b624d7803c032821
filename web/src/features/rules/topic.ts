// Which rules tab a topic opens on: a market's own rules (bookmaker and fancy have theirs), else
// its sport's, else the Match tab of an event's match odds. Sports are known by Betfair's ids
// (Backlay's sport ids are Betfair's: lib/sports.ts) or, for an operator's own sport, by name.
import type { RulesTopic } from '../../lib/rules-topic';
import { CRICKET_ID, FOOTBALL_ID, GREYHOUND_RACING_ID, HORSE_RACING_ID, PROMOTED_ID, TENNIS_ID } from '../../lib/sports';

const TAB_OF_SPORT_ID: Record<number, string> = {
  [CRICKET_ID]: 'match', // its match odds rules are the Match tab's Cricket section
  [FOOTBALL_ID]: 'football',
  [TENNIS_ID]: 'tennis',
  [HORSE_RACING_ID]: 'horse-racing',
  [GREYHOUND_RACING_ID]: 'horse-racing', // the same racing rules: non-runners, reduction factors
  7522: 'basketball',
  998917: 'volleyball',
  7524: 'ice-hockey',
  468328: 'handball',
  2593174: 'table-tennis',
  6422: 'snooker',
  [PROMOTED_ID]: 'politics',
};

/** Sport names (lower case) to tabs, the spec's spellings beside the usual ones. */
const TAB_OF_SPORT_NAME: Record<string, string> = {
  cricket: 'match',
  football: 'football',
  soccer: 'football',
  tennis: 'tennis',
  'horse racing': 'horse-racing',
  'greyhound racing': 'horse-racing',
  basketball: 'basketball',
  volleyball: 'volleyball',
  vollyball: 'volleyball',
  'ice hockey': 'ice-hockey',
  handball: 'handball',
  'table tennis': 'table-tennis',
  snooker: 'snooker',
  futsal: 'futsal',
  fustal: 'futsal',
  kabaddi: 'kabaddi',
  politics: 'politics',
  'e-games': 'e-games',
  esports: 'e-games',
};

/** The id of the tab `topic` opens on; null when it names nothing the rules have a tab for. */
export function rulesTabFor(topic: RulesTopic | null | undefined): string | null {
  if (!topic) return null;
  if (topic.marketType === 'bookmaker') return 'bookmaker';
  if (topic.marketType === 'fancy') return 'fancy';
  const bySport =
    (topic.sportId !== undefined ? TAB_OF_SPORT_ID[topic.sportId] : undefined) ??
    (topic.sportName ? TAB_OF_SPORT_NAME[topic.sportName.trim().toLowerCase()] : undefined);
  if (bySport) return bySport;
  return topic.marketType === 'match_odds' ? 'match' : null;
}
