// A casino table's server calls (crates/server/src/api/casino.rs, docs/api.md "Casino"): the
// round now, a bet, a past round recomputed from its revealed seed, and the table's live
// stream of round steps (docs/api.md "Live stream").
import { apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type RoundStatus = 'waiting' | 'betting' | 'closed' | 'dealing' | 'result';

/** A market of the round: `code` is sent as `market` in placeBet, `odds` the posted decimal text sent back exactly. */
export type CasinoMarket = Schemas['CasinoMarketItem'];
export type CasinoBet = Schemas['CasinoBetItem'];
export type LastResult = Schemas['LastResultItem'];
/** A round being dealt: its seats and every card (or draw) with when it is shown (crates/casino `dealing`). */
export type DealingView = Schemas['DealingView'];

/** One position on the table as the result shows it (crates/casino `HandView`). */
export interface HandView {
  name: string;
  cards: string[];
  description: string;
}

/** How one market came out: won, won_at (a pay table's odds), push, half_lost; absent: lost. */
export interface MarketVerdict {
  verdict: string;
  odds?: string;
}

export interface CasinoOutcome {
  winner?: string;
  hands?: HandView[];
  verdicts?: Record<string, MarketVerdict>;
}

/**
 * `casino/roundState`, with the table's phase narrowed; `result` (JSON in the document) is the
 * casino crate's outcome, read as {@link CasinoOutcome}.
 */
export type RoundState = Omit<Schemas['RoundStateAnswer'], 'status' | 'result'> & { status: RoundStatus; result: CasinoOutcome | null };

/** A round state with the local time (`Date.now()`) its answer arrived, for the countdown. */
export interface TableNow extends RoundState {
  received_at_ms: number;
}

export const roundStateKey = (idOrCode: string) => ['casinoRoundState', idOrCode] as const;

/** `casino/roundState`, by the game's id ("4") or code ("dt6"). */
export async function getRoundState(idOrCode: string): Promise<TableNow | null> {
  const body = /^\d+$/.test(idOrCode) ? { match_id: Number(idOrCode) } : { game_code: idOrCode };
  const state = dataOr(await apiPost<RoundState>('casino/roundState', body), null);
  return state ? { ...state, received_at_ms: Date.now() } : null;
}

/** A `round` event of `stream?casino=`: news that a round reached a phase (never its seed or bets). */
export type RoundEvent = Schemas['RoundEvent'];

/** The table's live stream: `round` events for one game, by its code. */
export function roundStreamUrl(gameCode: string, ticket: string): string {
  return `/api/stream?casino=${encodeURIComponent(gameCode)}&ticket=${encodeURIComponent(ticket)}`;
}

export interface CasinoBetInput {
  round_id: string;
  market: string;
  /** Exactly the posted odds text. */
  odds: string;
  /** The stake as exact decimal text ("250.50"). */
  stake: string;
}

export type PlacedCasinoBet = Schemas['PlaceCasinoBetAnswer'];

/** `casino/placeBet`: 409 when betting closed or the odds changed, 422 without the funds. */
export async function placeCasinoBet(input: CasinoBetInput): Promise<PlacedCasinoBet | null> {
  return dataOr(await apiPost<PlacedCasinoBet>('casino/placeBet', input), null);
}

/** `casino/round`; `result` read as in {@link RoundState}. */
export type RoundDetail = Omit<Schemas['RoundDetailAnswer'], 'result'> & { result: CasinoOutcome | null };

export const roundDetailKey = (roundId: string) => ['casinoRound', roundId] as const;

/** `casino/round`: the round, with its seed and recomputed deal once dealt. */
export async function getRoundDetail(roundId: string): Promise<RoundDetail | null> {
  return dataOr(await apiPost<RoundDetail>('casino/round', { round_id: roundId }), null);
}
