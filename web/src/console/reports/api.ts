// The console's partnership report (console/report/partnership): an admin's or agent's P&L with
// its direct children split by partnership, and who owes whom after settlement. The server keeps
// an agent to its own downline; this only asks.
import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type PartnershipReport = Schemas['PartnershipReport'];
export type PartnershipRow = Schemas['PartnershipRow'];
export type PartnershipMarketRow = Schemas['PartnershipMarketRow'];
export type SettleCashData = Schemas['SettleCashData'];
export type CashDirection = 'received' | 'paid';

export interface PartnershipQuery {
  /** The account reported on; absent: the caller. */
  userId: number | null;
  from_date: string;
  to_date: string;
  /** Only this match's markets. */
  matchId?: number;
  /** Only this market. */
  marketId?: number;
}

export const reportKeys = {
  /** Every partnership report (a settlement changes them all). */
  all: ['console', 'report'] as const,
  partnership: (q: PartnershipQuery) => ['console', 'report', 'partnership', q.userId, q.from_date, q.to_date, q.matchId ?? null, q.marketId ?? null] as const,
};

/** The report's call body (the report's and its download's). */
export function partnershipParams(q: PartnershipQuery): Record<string, unknown> {
  return {
    ...(q.userId === null ? {} : { user_id: q.userId }),
    from_date: q.from_date,
    to_date: q.to_date,
    ...(q.matchId === undefined ? {} : { match_id: q.matchId }),
    ...(q.marketId === undefined ? {} : { market_id: q.marketId }),
  };
}

export function partnershipReport(q: PartnershipQuery): Promise<Answer<PartnershipReport>> {
  return apiPost<PartnershipReport>('console/report/partnership', partnershipParams(q));
}

/** Cash received from a direct child (or paid to it), against what the collection report says. */
export function settleCash(userId: number, direction: CashDirection, amount: string, remark: string): Promise<Answer<SettleCashData>> {
  return apiPost<SettleCashData>('console/collection/settle', { user_id: userId, direction, amount, remark });
}
