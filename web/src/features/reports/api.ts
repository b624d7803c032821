import { apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { Page } from '../../api/page';

/** Each report's row, as the server's document describes it. */
export interface ReportRows {
  'report/accountStatement': Schemas['StatementRow'];
  'report/paymentStatement': Schemas['PaymentStatementRow'];
  'report/currentBets': Schemas['CurrentBetEntry'];
  'report/casinoResult': Schemas['CasinoResultRow'];
  'report/liveCasinoBets': Schemas['LiveCasinoBetRow'];
  'report/profitLoss': Schemas['ProfitLossRow'];
  'report/betHistory': Schemas['BetHistoryRow'];
}

export type ReportPath = keyof ReportRows;

/** A row as the report table reads it: by the keys its columns name. */
export type Row = Record<string, unknown>;

export const REPORT_PAGE_LIMIT = 20;

export type SettledBet = Schemas['SettledBetRow'];
export type CurrentBetRow = Schemas['CurrentBetRow'];
/** One position of a casino round's result (`report/casinoResult` rows' `hands`). */
export type ResultHand = Schemas['ResultHand'];

/** `report/settledBets`: the caller's bets a statement line's market settled. */
export async function getSettledBets(marketId: number): Promise<SettledBet[]> {
  const data = dataOr(await apiPost<SettledBet[]>('report/settledBets', { market_id: marketId }), []);
  return Array.isArray(data) ? data : [];
}

export type ProfitLossRow = Schemas['ProfitLossRow'];
export type ProfitLossTotals = Schemas['ProfitLossTotals'];
export type BetHistoryRow = Schemas['BetHistoryRow'];
export type BetHistoryTotals = Schemas['BetHistoryTotals'];
export type Sport = Schemas['SportItem'];

/** A page of a report; `totals` when the report adds up every row (Profit & Loss, Bet History). */
export type ReportPage = Page<Row> & { totals?: Row };

export async function fetchReport(path: ReportPath, params: Record<string, unknown>, page: number, limit = REPORT_PAGE_LIMIT): Promise<ReportPage> {
  const data = dataOr(await apiPost<(Page<ReportRows[ReportPath]> & { totals?: Row }) | Row[]>(path, { ...params, page, limit }), null);
  if (Array.isArray(data)) return { rows: data, total: data.length, page, limit };
  return {
    rows: Array.isArray(data?.rows) ? data.rows : [],
    total: Number(data?.total ?? 0),
    page: Number(data?.page ?? page),
    limit: Number(data?.limit ?? limit),
    ...(data?.totals && typeof data.totals === 'object' ? { totals: data.totals } : {}),
  };
}

/** `sport/getSports`: the sports a bettor can filter their history by. */
export async function getSports(): Promise<Sport[]> {
  const data = dataOr(await apiPost<Sport[]>('sport/getSports', {}), []);
  return Array.isArray(data) ? data : [];
}
