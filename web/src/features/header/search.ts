import { formatIstDateTime } from '../../lib/format';
import type { CasinoGameInfo } from '../../api/casino-games';
import type { SearchAnswer } from './api';

export interface SearchGroup {
  sport: string;
  matches: { match_id: number; sport_id: number; match_name: string; date: string }[];
}

/** Search results as the header lists them: by sport name, each match with its IST start. */
export function groupSearchResults(answer: SearchAnswer | null | undefined): SearchGroup[] {
  if (!answer || typeof answer !== 'object') return [];
  return Object.entries(answer)
    .filter(([, hits]) => Array.isArray(hits) && hits.length > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([sport, hits]) => ({
      sport,
      matches: hits.map((hit) => ({
        match_id: hit.match_id,
        sport_id: hit.sport_id,
        match_name: hit.match_name,
        date: formatIstDateTime(hit.open_date),
      })),
    }));
}

/** A casino game found by the search: its name and where its table is. */
export interface CasinoHit {
  name: string;
  path: string;
}

/** Most casino games one search lists. */
export const CASINO_HITS_LIMIT = 10;

/** The in-house casino games whose name (or code) contains the text, ignoring case. */
export function findCasinoGames(games: CasinoGameInfo[] | undefined, text: string): CasinoHit[] {
  const needle = text.trim().toLowerCase();
  if (!needle || !games) return [];
  return games
    .filter((g) => g.name.toLowerCase().includes(needle) || g.game_code.toLowerCase() === needle)
    .slice(0, CASINO_HITS_LIMIT)
    .map((g) => ({ name: g.name, path: `/casino/match/${g.match_id}` }));
}
