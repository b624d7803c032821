import type { OddsSummary, RunnerOdds } from './api';

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

/** Where a tapped list price leads: the match page with that selection in the bet slip. */
export function pickPath(sportId: number, matchId: number, marketId: number, runner: RunnerOdds, side: 'back' | 'lay'): string {
  const price = side === 'back' ? runner.back : runner.lay;
  const query = new URLSearchParams({ market: String(marketId), selection: String(runner.selection_id), side });
  if (price) query.set('price', String(price));
  return `/game-details/${sportId}/${matchId}?${query.toString()}`;
}
