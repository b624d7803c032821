// The desk's and the catalogue's server calls (crates/server/src/api/{desk,market,admin}.rs):
// admin only, each checked again on the server, each change audited there.
import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type DeskMatch = Schemas['DeskMatch'];
export type DeskMarket = Schemas['DeskMarket'];
export type ResultPreview = Schemas['ResultPreview'];
export type MarketLimits = Schemas['MarketLimits'];
export type MarketStatus = Schemas['MarketStatus'];

export const deskKey = (matchId: number) => ['console', 'desk', matchId] as const;

export function getDesk(matchId: number): Promise<Answer<DeskMatch>> {
  return apiPost<DeskMatch>('admin/desk/markets', { match_id: matchId });
}

export function setStatus(marketId: number, status: 'open' | 'suspended' | 'ball_running'): Promise<Answer<string | null>> {
  return apiPost<string | null>('admin/market/status', { market_id: marketId, status });
}

export function setFancyLines(marketId: number, lines: { lineNo: number; rateNo: number; lineYes: number; rateYes: number }): Promise<Answer<string | null>> {
  return apiPost<string | null>('admin/market/rates', {
    market_id: marketId,
    line_no: lines.lineNo,
    rate_no: lines.rateNo,
    line_yes: lines.lineYes,
    rate_yes: lines.rateYes,
  });
}

export function setBookmakerRates(marketId: number, runners: { selectionId: number; back: number | null; lay: number | null }[]): Promise<Answer<string | null>> {
  return apiPost<string | null>('admin/market/rates', {
    market_id: marketId,
    runners: runners.map((r) => ({ selection_id: r.selectionId, back: r.back, lay: r.lay })),
  });
}

/** The desk's spread on a bookmaker (rate points of lay above back) or a fancy (runs of YES above NO). */
export function setSpread(marketId: number, spread: number): Promise<Answer<Schemas['MarketSpread']>> {
  return apiPost<Schemas['MarketSpread']>('admin/market/spread', { market_id: marketId, spread });
}

/** Amounts as plain decimal text ("100.50"), read exactly by the server. */
export function setLimits(marketId: number, minStake: string, maxStake: string): Promise<Answer<MarketLimits>> {
  return apiPost<MarketLimits>('admin/market/limits', { market_id: marketId, min_stake: minStake, max_stake: maxStake });
}

/** What declaring a result settles: a winner, a fancy's run total, or voiding. */
/** A result: the winner, a place market's placed runners (first placed first), a run total, or void. */
export type Outcome = { winnerSelectionId: number } | { placedSelectionIds: number[] } | { runs: number } | { void: true };

function outcomeBody(outcome: Outcome): Record<string, unknown> {
  if ('winnerSelectionId' in outcome) return { winner_selection_id: outcome.winnerSelectionId };
  if ('placedSelectionIds' in outcome) return { placed_selection_ids: outcome.placedSelectionIds };
  if ('runs' in outcome) return { result: outcome.runs };
  return { void: 1 };
}

export function previewResult(marketId: number, outcome: Outcome): Promise<Answer<ResultPreview>> {
  return apiPost<ResultPreview>('admin/market/resultPreview', { market_id: marketId, ...outcomeBody(outcome) });
}

export function declareResult(marketId: number, outcome: Outcome): Promise<Answer<string | null>> {
  if ('void' in outcome) return apiPost<string | null>('admin/market/void', { market_id: marketId });
  return apiPost<string | null>('admin/market/result', { market_id: marketId, ...outcomeBody(outcome) });
}

export function setInPlay(matchId: number, inPlay: boolean): Promise<Answer<string | null>> {
  return apiPost<string | null>('admin/match/inPlay', { match_id: matchId, in_play: inPlay ? 1 : 0 });
}

export type CorrectionAnswer = Schemas['CorrectionAnswer'];
export type CorrectionLine = Schemas['CorrectionLineView'];

/** What correcting a market's result would move, per client and per agent's share (nothing written). */
export function previewCorrection(marketId: number): Promise<Answer<CorrectionAnswer>> {
  return apiPost<CorrectionAnswer>('admin/market/unsettlePreview', { market_id: marketId });
}

/** Takes a resulted or void market back to suspended, reversing its settlement; audited with `reason`. */
export function correctResult(marketId: number, reason: string): Promise<Answer<CorrectionAnswer>> {
  return apiPost<CorrectionAnswer>('admin/market/unsettle', { market_id: marketId, reason });
}

export type RunnerRemoved = Schemas['RunnerRemovedRow'];

/**
 * Withdraws a runner (a non-runner), for good: its bets are void; with a reduction factor (a
 * percentage, at most 2 decimals) of 2.5 or more every unmatched bet of the market is cancelled
 * and the prices matched before on the other runners are reduced.
 */
export function removeRunner(marketId: number, selectionId: number, reductionFactor: number): Promise<Answer<RunnerRemoved>> {
  return apiPost<RunnerRemoved>('admin/market/removeRunner', { market_id: marketId, selection_id: selectionId, reduction_factor: reductionFactor });
}
