// The downline's accounts: listed by console/downline/list, changed by the operator calls under
// admin/user/…; the server checks that each account is in the caller's downline.
import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { Page } from '../../api/page';

export type UserSummary = Schemas['UserSummary'];
/** One row of console/downline/list: a direct child with its chips, P&L and terms. */
export type DownlineRow = Schemas['DownlineAccount'];
export type DownlineSort = Schemas['DownlineSort'];
export type SortOrder = Schemas['SortOrder'];
export type TransferDirection = 'deposit' | 'withdraw';
export type TransferData = Schemas['TransferData'];

export type PathStep = Schemas['PathStep'];
export type AccountSummary = Schemas['AccountSummary'];
export type BulkAction = Schemas['BulkAction'];
export type BulkOutcome = Schemas['BulkOutcome'];

export const DOWNLINE_PAGE_LIMIT = 25;
/**
 * Every downline list and account header the console holds; a change to an account or a
 * payment makes them stale.
 */
export const DOWNLINE_QUERY_KEY = ['console', 'downline'] as const;
/** An account's header (its figures and its trail from the caller). */
export const accountSummaryKey = (userId: number) => [...DOWNLINE_QUERY_KEY, 'summary', userId] as const;
/**
 * How often figures on console screens are read again while shown (balances, exposure,
 * P&L): bets settle and chips move without the console doing anything.
 */
export const FIGURES_REFRESH_MS = 5_000;

export interface DownlineListQuery {
  /** Whose children: null lists the caller's own. */
  parentId: number | null;
  /** Part of a user name; empty: all. */
  search: string;
  sort: DownlineSort;
  order: SortOrder;
  page: number;
}

/** The server checks that `parentId` is in the caller's downline. */
export function listDownline(query: DownlineListQuery): Promise<Answer<Page<DownlineRow>>> {
  return apiPost<Page<DownlineRow>>('console/downline/list', {
    ...(query.parentId === null ? {} : { parent_id: query.parentId }),
    ...(query.search ? { search: query.search } : {}),
    sort: query.sort,
    order: query.order,
    page: query.page,
    limit: DOWNLINE_PAGE_LIMIT,
  });
}

/** An account's figures, terms, status and the way down to it from the caller. */
export function accountSummary(userId: number): Promise<Answer<AccountSummary>> {
  return apiPost<AccountSummary>('console/account/summary', { user_id: userId });
}

export interface BulkInput {
  action: BulkAction;
  userIds: number[];
  /** give_chips: as typed ("100.50"). */
  amount?: string;
  remark?: string;
}

/** One action on each account in order; the answer says per account what happened. */
export function bulkAction(input: BulkInput): Promise<Answer<BulkOutcome>> {
  return apiPost<BulkOutcome>('console/downline/bulk', {
    action: input.action,
    user_ids: input.userIds,
    ...(input.action === 'give_chips' ? { amount: input.amount, remark: input.remark ?? '' } : {}),
  });
}

export interface CreateAccountInput {
  user_name: string;
  password: string;
  role: 'agent' | 'client';
  parent_id?: number;
  /** An agent's share in percent, as typed ("40", "12.5"). */
  partnership?: string;
  /** Amounts as typed; absent: none. */
  terms?: { credit_reference?: string; max_stake?: string };
}

export function createAccount(input: CreateAccountInput): Promise<Answer<UserSummary>> {
  return apiPost<UserSummary>('admin/user/create', input);
}

/** `amount`: a plain decimal text ("1500.50"), read exactly by the server. */
export function transfer(userId: number, direction: TransferDirection, amount: string, remark: string): Promise<Answer<TransferData>> {
  return apiPost<TransferData>('admin/user/transfer', { user_id: userId, direction, amount, remark });
}

export function setLocked(userId: number, locked: boolean): Promise<Answer<UserSummary>> {
  return apiPost<UserSummary>('admin/user/lock', { user_id: userId, locked: locked ? 1 : 0 });
}

/** Only the terms sent change; amounts as typed; null removes a stake cap or exposure limit. */
export interface TermsChange {
  credit_reference?: string;
  bet_locked?: 0 | 1;
  max_stake?: string | null;
  max_exposure?: string | null;
}

export function setTerms(userId: number, terms: TermsChange): Promise<Answer<UserSummary>> {
  return apiPost<UserSummary>('admin/user/terms', { user_id: userId, terms });
}

/** The account must change `password` at its next log-in; its sessions end. */
export function resetPassword(userId: number, password: string): Promise<Answer<UserSummary>> {
  return apiPost<UserSummary>('admin/user/resetPassword', { user_id: userId, password });
}
