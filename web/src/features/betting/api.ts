// The betting area's server calls (crates/server/src/api/{matches,bet,stream}.rs, docs/api.md).
import { apiPost, dataOr } from '../../api/client';

export type MarketType = 'match_odds' | 'bookmaker' | 'fancy' | 'win' | 'place' | 'casino';
export type MarketStatus = 'open' | 'suspended' | 'ball_running' | 'closed' | 'void';

export interface PriceSize {
  /** Decimal odds on exchange markets; the rate (45 = 1.45) on a bookmaker. */
  price: number;
  /** Money available at that price. */
  size: number;
}

export interface RunnerBook {
  selection_id: number;
  name: string;
  /** Up to 3, best (highest) first. */
  back: PriceSize[];
  /** Up to 3, best (lowest) first. */
  lay: PriceSize[];
  /** The caller's P&L if this runner wins (0 in the public stream). */
  position: number;
}

export interface FancyRange {
  from: number;
  /** Inclusive; null: and above. */
  to: number | null;
  pnl: number;
}

export interface MarketBook {
  market_id: number;
  match_id: number;
  name: string;
  type: MarketType;
  status: MarketStatus;
  in_play: boolean;
  bet_delay_s: number;
  min_stake: number;
  max_stake: number;
  runners: RunnerBook[];
  line_no: number | null;
  rate_no: number | null;
  line_yes: number | null;
  rate_yes: number | null;
  /** Fancy only: the caller's P&L per run range (empty in the public stream). */
  book: FancyRange[];
}

export interface MatchSummary {
  match_id: number;
  name: string;
  match_name: string;
  open_date: string;
  sport_id: number;
  sport_name: string;
  series_id?: number;
  series_name?: string;
  in_play: boolean;
  has_fancy?: boolean;
  has_bookmaker?: boolean;
}

export interface MatchDetail {
  match: MatchSummary;
  markets: MarketBook[];
}

export const matchDetailKey = (matchId: number) => ['matchDetail', matchId] as const;
export const openBetsKey = (matchId: number) => ['openBets', matchId] as const;

export async function getMatchDetail(matchId: number): Promise<MatchDetail | null> {
  return dataOr(await apiPost<MatchDetail>('match/matchDetail', { match_id: matchId }), null);
}

export type BetSide = 'back' | 'lay' | 'yes' | 'no';

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
  persistence: 'lapse' | 'persist';
  client_ref: string;
}

export interface PlaceBetResult {
  bet_id: number;
  /** matched, partially_matched or unmatched. */
  status: string;
  size_matched: number;
  avg_price_matched: number | null;
  message: string;
}

export async function placeBet(input: PlaceBetInput): Promise<PlaceBetResult | null> {
  return dataOr(await apiPost<PlaceBetResult>('bet/placeBet', input), null);
}

export interface BetItem {
  bet_id: number;
  market_id: number;
  selection_id: number | null;
  side: BetSide;
  price: number;
  line: number | null;
  stake: number;
  matched: number;
  remaining: number;
  status: string;
  persistence: string;
  date: string;
}

export interface OpenBets {
  matched: BetItem[];
  unmatched: BetItem[];
}

export async function getOpenBets(matchId: number): Promise<OpenBets> {
  return dataOr(await apiPost<OpenBets>('bet/openBets', { match_id: matchId }), { matched: [], unmatched: [] });
}

export interface CancelResult {
  bet_id: number;
  cancelled: number;
  remaining: number;
}

export async function cancelBet(betId: number): Promise<{ message: string; data: CancelResult | null }> {
  const answer = await apiPost<CancelResult>('bet/cancelBet', { bet_id: betId });
  return { message: answer.message, data: dataOr(answer, null) };
}

export function streamUrl(matchId: number, ticket: string): string {
  return `/api/stream?match_id=${encodeURIComponent(matchId)}&ticket=${encodeURIComponent(ticket)}`;
}
