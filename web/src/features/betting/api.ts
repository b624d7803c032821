// The betting area's server calls (crates/api/src/{matches,bet,market}.rs, docs/api.md); the match's
// stream and its books are in api/match-stream.ts.
import { apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type MarketType = Schemas['MarketType'];
export type MarketStatus = Schemas['MarketStatus'];
export type BetSide = Schemas['BetSide'];

/** A price and the money at it: decimal odds on exchange markets, the rate (45 = 1.45) on a bookmaker. */
export type PriceSize = Schemas['PriceSize'];
/** A runner's best 3 back (highest first) and lay (lowest first), and the caller's P&L if it wins. */
export type RunnerBook = Schemas['RunnerBook'];
/** A fancy's P&L for the caller over a run range. */
export type FancyRange = Schemas['FancyRange'];
export type MatchDetail = Schemas['MatchDetail'];
/** What a race card says of a runner (draw, jockey, trainer), each null until given. */
export type RunnerCard = Schemas['RunnerCardItem'];

export const matchDetailKey = (matchId: number) => ['matchDetail', matchId] as const;
export const openBetsKey = (matchId: number) => ['openBets', matchId] as const;

export async function getMatchDetail(matchId: number): Promise<MatchDetail | null> {
  return dataOr(await apiPost<MatchDetail>('match/matchDetail', { match_id: matchId }), null);
}

export interface PlaceBetInput {
  market_id: number;
  selection_id?: number;
  side: BetSide;
  /** Exact text: ladder odds on exchange markets, the posted rate on bookmaker and fancy. */
  price: string;
  /** Fancy only. */
  line?: number;
  /** Exact text, e.g. "250.50". */
  stake: string;
  persistence: Schemas['Persistence'];
  client_ref: string;
  /** Bookmaker and fancy: the rate moves taken unasked (user/preferences). */
  accept_rate_changes?: Schemas['RateChanges'];
}

export type PlaceBetResult = Schemas['PlaceBetData'];

export async function placeBet(input: PlaceBetInput): Promise<PlaceBetResult | null> {
  return dataOr(await apiPost<PlaceBetResult>('bet/placeBet', input), null);
}

export type BetItem = Schemas['BetItem'];
export type OpenBets = Schemas['OpenBetsData'];

export async function getOpenBets(matchId: number): Promise<OpenBets> {
  return dataOr(await apiPost<OpenBets>('bet/openBets', { match_id: matchId }), { matched: [], unmatched: [] });
}

export type CancelResult = Schemas['CancelBetData'];

export async function cancelBet(betId: number): Promise<{ message: string; data: CancelResult | null }> {
  const answer = await apiPost<CancelResult>('bet/cancelBet', { bet_id: betId });
  return { message: answer.message, data: dataOr(answer, null) };
}

export interface UpdateBetInput {
  bet_id: number;
  /** Exact ladder text; a new price is a new order at the back of the queue. */
  price?: string;
  /** The bet's new whole stake, matched part included, as exact text. */
  stake?: string;
  persistence?: Schemas['Persistence'];
}

export type UpdateBetResult = Schemas['UpdateBetData'];

/** `bet/updateBet` (crates/api/src/bet_edit.rs): a lower stake keeps the queue place; a new price or higher stake replaces the bet. */
export async function updateBet(input: UpdateBetInput): Promise<{ message: string; data: UpdateBetResult | null }> {
  const answer = await apiPost<UpdateBetResult>('bet/updateBet', input);
  return { message: answer.message, data: dataOr(answer, null) };
}

/** Cancels every unmatched bet of the caller's in one market. */
export async function cancelAllBets(marketId: number): Promise<{ message: string; count: number }> {
  const answer = await apiPost<Schemas['CancelAllData']>('bet/cancelAllBets', { market_id: marketId });
  return { message: answer.message, count: dataOr(answer, null)?.count ?? 0 };
}

/** A runner's full ladder: only the prices with something on them, lowest first (market/ladder). */
export type Ladder = Schemas['LadderData'];
export type LadderLevel = Schemas['LadderLevelData'];
/** A runner's price over time in at most 200 intervals (market/priceHistory). */
export type PriceHistory = Schemas['PriceHistoryData'];
export type PricePoint = Schemas['PricePointData'];

export const ladderKey = (marketId: number, selectionId: number) => ['ladder', marketId, selectionId] as const;
export const priceHistoryKey = (marketId: number, selectionId: number) => ['priceHistory', marketId, selectionId] as const;

export async function getLadder(marketId: number, selectionId: number): Promise<Ladder | null> {
  return dataOr(await apiPost<Ladder>('market/ladder', { market_id: marketId, selection_id: selectionId }), null);
}

export async function getPriceHistory(marketId: number, selectionId: number): Promise<PriceHistory | null> {
  return dataOr(await apiPost<PriceHistory>('market/priceHistory', { market_id: marketId, selection_id: selectionId }), null);
}

export type CashOutQuote = Schemas['CashOutQuoteData'];
export type CashOutDone = Schemas['CashOutData'];
export type ShownLeg = Schemas['ShownLeg'];

export const cashOutQuoteKey = (marketId: number, percent: number, book: string) => ['cashOutQuote', marketId, percent, book] as const;

/** `bet/cashOutQuote` (crates/api/src/cash_out.rs): what closing `percent` of the position would leave, or why not. */
export async function getCashOutQuote(marketId: number, percent: number): Promise<CashOutQuote | null> {
  return dataOr(await apiPost<CashOutQuote>('bet/cashOutQuote', { market_id: marketId, percent }), null);
}

export interface CashOutInput {
  market_id: number;
  percent: number;
  /** The quote's bets as the page showed them: the prices the server holds the cash out to. */
  shown: ShownLeg[];
  client_ref: string;
}

/** `bet/cashOut`: the hedge at the prices shown, all of it matched at once or nothing placed. */
export async function cashOut(input: CashOutInput): Promise<{ message: string; data: CashOutDone | null }> {
  const answer = await apiPost<CashOutDone>('bet/cashOut', input);
  return { message: answer.message, data: dataOr(answer, null) };
}
