// The risk screens' calls: console/market/… (the house's position against the caller's downline
// and the downline's bets) and console/account/… (one downline account's records). The server
// keeps an agent to its own downline; these only ask.
import { apiGet, apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { Page } from '../../api/page';

export type LiveMatch = Schemas['LiveMatch'];
export type MatchAnalysis = Schemas['MatchAnalysis'];
export type MarketAnalysis = Schemas['MarketAnalysis'];
export type FancyRange = Schemas['FancyRange'];
export type MarketBetRow = Schemas['MarketBetRow'];
export type StatementRow = Schemas['StatementRow'];
export type CurrentBetEntry = Schemas['CurrentBetEntry'];
/** A sports bet of currentBets (the console asks for sports only). */
export type SportsBet = Schemas['CurrentBetLine'];
export type AccountPnl = Schemas['AccountPnl'];
export type PnlRow = Schemas['PnlRow'];
export type SettledBetRow = Schemas['SettledBetRow'];
export type BetOutcome = Schemas['BetOutcome'];
export type BetSideFilter = '' | 'back' | 'lay' | 'yes' | 'no';

export const RISK_BETS_PAGE_LIMIT = 25;
export const ACCOUNT_PAGE_LIMIT = 25;

export const riskKeys = {
  live: ['console', 'risk', 'live'] as const,
  analysis: (matchId: number) => ['console', 'risk', 'analysis', matchId] as const,
  allBets: ['console', 'risk', 'bets'] as const,
  bets: (marketId: number, user: string, side: BetSideFilter, page: number) => ['console', 'risk', 'bets', marketId, user, side, page] as const,
  account: (userId: number, tab: string, page: number) => ['console', 'account', userId, tab, page] as const,
};

export function listLiveMatches(): Promise<Answer<LiveMatch[]>> {
  return apiGet<LiveMatch[]>('console/market/live');
}

export function getAnalysis(matchId: number): Promise<Answer<MatchAnalysis>> {
  return apiPost<MatchAnalysis>('console/market/analysis', { match_id: matchId });
}

export function listMarketBets(marketId: number, user: string, side: BetSideFilter, page: number): Promise<Answer<Page<MarketBetRow>>> {
  return apiPost<Page<MarketBetRow>>('console/market/bets', {
    market_id: marketId,
    ...(user.trim() ? { user: user.trim() } : {}),
    ...(side ? { side } : {}),
    page,
    limit: RISK_BETS_PAGE_LIMIT,
  });
}

export function accountStatement(userId: number, page: number): Promise<Answer<Page<StatementRow>>> {
  return apiPost<Page<StatementRow>>('console/account/statement', { user_id: userId, page, limit: ACCOUNT_PAGE_LIMIT });
}

export function accountBets(userId: number, page: number): Promise<Answer<Page<CurrentBetEntry>>> {
  return apiPost<Page<CurrentBetEntry>>('console/account/bets', { user_id: userId, type: 'sports', page, limit: ACCOUNT_PAGE_LIMIT });
}

export function accountPnl(userId: number): Promise<Answer<AccountPnl>> {
  return apiPost<AccountPnl>('console/account/pnl', { user_id: userId });
}

export interface BetHistoryFilter {
  /** yyyy-MM-dd; empty: no bound. */
  from: string;
  to: string;
  /** Empty: every closed bet. */
  outcome: BetOutcome | '';
}

/** The history's call body for `filter` (the list's and its download's). */
export function betHistoryParams(userId: number, filter: BetHistoryFilter): Record<string, unknown> {
  return {
    user_id: userId,
    ...(filter.from ? { from_date: filter.from } : {}),
    ...(filter.to ? { to_date: filter.to } : {}),
    ...(filter.outcome ? { outcome: filter.outcome } : {}),
  };
}

/** The account's closed bets, newest first, by the date placed and how each ended. */
export function accountBetHistory(userId: number, filter: BetHistoryFilter, page: number): Promise<Answer<Page<SettledBetRow>>> {
  return apiPost<Page<SettledBetRow>>('console/account/betHistory', { ...betHistoryParams(userId, filter), page, limit: ACCOUNT_PAGE_LIMIT });
}
