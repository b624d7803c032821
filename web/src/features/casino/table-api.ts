// A casino table's server calls (crates/server/src/api/casino.rs, docs/api.md "Casino"): the
// round now, a bet, a past round recomputed from its revealed seed, and the table's live
// stream of round steps (docs/api.md "Live stream").
import { apiPost, dataOr } from '../../api/client';

export type RoundStatus = 'waiting' | 'betting' | 'closed' | 'result';

export interface CasinoMarket {
  /** What to send as `market` in placeBet. */
  code: string;
  name: string;
  family: string;
  /** Decimal odds as text ("1.98"): sent back exactly as posted. */
  odds: string;
  price: number;
  /** True once betting has closed. */
  suspended: boolean;
}

export interface CasinoBet {
  bet_id: number;
  round_id: string;
  match_id: number;
  game_code: string;
  game_name?: string;
  market: string;
  market_name: string;
  odds: string;
  stake: number;
  /** What came back, stake included; absent while the round runs. */
  payout?: number | null;
  /** open, won, lost, push, half_lost. */
  status: string;
  date: string;
}

export interface LastResult {
  round_id: string;
  winner: string;
  date: string;
}

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

export interface RoundState {
  match_id: number;
  game_code: string;
  /** The rules code (`teen20`, `dt1day` …); absent from an older server. */
  game?: string;
  name: string;
  title: string;
  round_id: string | null;
  status: RoundStatus;
  seconds_left: number;
  close_in_ms: number;
  close_at: string | null;
  server_time: string;
  commitment: string | null;
  cards: string[];
  deal: unknown;
  result: CasinoOutcome | null;
  winner: string | null;
  seed: string | null;
  markets: CasinoMarket[];
  my_bets: CasinoBet[];
  last_results: LastResult[];
}

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
export interface RoundEvent {
  game_code: string;
  round_id: string;
  /** betting (the round opened), closed, dealt or settled. */
  phase: 'betting' | 'closed' | 'dealt' | 'settled';
  /** When betting closes; only while betting. */
  close_at?: string;
}

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

export interface PlacedCasinoBet {
  bet: CasinoBet;
  balance: number;
}

/** `casino/placeBet`: 409 when betting closed or the odds changed, 422 without the funds. */
export async function placeCasinoBet(input: CasinoBetInput): Promise<PlacedCasinoBet | null> {
  return dataOr(await apiPost<PlacedCasinoBet>('casino/placeBet', input), null);
}

export interface RoundDetail {
  round_id: string;
  match_id: number;
  game_code: string;
  /** Absent from an older server. */
  name?: string;
  title?: string;
  /** The rules code (`backlay casino verify --game`). */
  game: string;
  /** betting, closed, dealt or settled. */
  phase: string;
  commitment: string;
  seed: string | null;
  /** The server's own check: SHA-256(seed) is the commitment and the recomputed deal is the one dealt. */
  verified: boolean;
  deal: unknown;
  result: CasinoOutcome | null;
  cards: string[];
  winner: string | null;
  opened_at: string;
  close_at: string;
  settled_at: string | null;
}

export const roundDetailKey = (roundId: string) => ['casinoRound', roundId] as const;

/** `casino/round`: the round, with its seed and recomputed deal once dealt. */
export async function getRoundDetail(roundId: string): Promise<RoundDetail | null> {
  return dataOr(await apiPost<RoundDetail>('casino/round', { round_id: roundId }), null);
}
