import { FOOTBALL_ID, TENNIS_ID } from '../../lib/sports';
import type { Match, OddsSummary, RunnerOdds } from './api';

/**
 * The runners under the list's 1 / X / 2 columns: home, the draw (where there is one) and
 * away. Two runners leave X empty; a runner named like "The Draw" goes under X.
 */
export function oddsColumns(odds: OddsSummary | null | undefined): [RunnerOdds | null, RunnerOdds | null, RunnerOdds | null] {
  const runners = odds?.runners ?? [];
  const draw = runners.find((r) => /\bdraw\b/i.test(r.name)) ?? null;
  const others = runners.filter((r) => r !== draw);
  return [others[0] ?? null, draw, others[1] ?? null];
}

/** A match with no draw: tennis, or a match-odds market of two runners. */
export function isTwoWay(match: Pick<Match, 'sport_id' | 'odds'>): boolean {
  if (match.sport_id === TENNIS_ID) return true;
  const runners = match.odds?.runners;
  return runners !== undefined && runners.length <= 2 && !runners.some((r) => /\bdraw\b/i.test(r.name));
}

/**
 * The columns a list shows: 1 / X / 2, or 1 / 2 when no match in it can end in a draw (a list
 * of tennis, or of two-runner markets). A match without odds yet does not add the X column
 * unless its sport has draws.
 */
export function listColumns(matches: Pick<Match, 'sport_id' | 'odds'>[]): ('1' | 'X' | '2')[] {
  const hasDraw = matches.some((m) => (m.odds ? !isTwoWay(m) : DRAW_SPORTS.has(m.sport_id)));
  return hasDraw ? ['1', 'X', '2'] : ['1', '2'];
}

/** Sports whose matches can be drawn (football): a list of them keeps X before their odds arrive. */
const DRAW_SPORTS = new Set([FOOTBALL_ID]);

/** Where a tapped list price leads: the match page with that selection in the bet slip. */
export function pickPath(sportId: number, matchId: number, marketId: number, runner: RunnerOdds, side: 'back' | 'lay'): string {
  const price = side === 'back' ? runner.back : runner.lay;
  const query = new URLSearchParams({ market: String(marketId), selection: String(runner.selection_id), side });
  if (price) query.set('price', String(price));
  return `/game-details/${sportId}/${matchId}?${query.toString()}`;
}
