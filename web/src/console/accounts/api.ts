// The downline's accounts: the operator calls under admin/user/…, which check on the server
// that an agent acts on its own clients only.
import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type UserSummary = Schemas['UserSummary'];
/** One row of admin/user/list: the account and its chips. */
export type UserRow = UserSummary & { balance: number; exposure: number };
export type Paged<T> = { rows: T[]; total: number; page: number; limit: number };
export type TransferDirection = 'deposit' | 'withdraw';
export type TransferData = Schemas['TransferData'];

export const DOWNLINE_PAGE_LIMIT = 25;

/** `parent_id`: whose children (admins only; an agent always gets its own). */
export function listUsers(parentId: number | null, page: number): Promise<Answer<Paged<UserRow>>> {
  return apiPost<Paged<UserRow>>('admin/user/list', {
    ...(parentId === null ? {} : { parent_id: parentId }),
    page,
    limit: DOWNLINE_PAGE_LIMIT,
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

/** `maxExposure`: a plain decimal text, or null for no limit. */
export function setExposureLimit(userId: number, maxExposure: string | null): Promise<Answer<UserSummary>> {
  return apiPost<UserSummary>('admin/user/exposureLimit', { user_id: userId, max_exposure: maxExposure });
}
