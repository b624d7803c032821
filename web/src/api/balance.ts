// The caller's balance (`user/getUserBalance`): the header polls it (hooks/useBalance.ts) and the
// console reads it again after moving money, so the one call and its cache key live here rather
// than in either.
import { apiGet, dataOr } from './client';
import type { Schemas } from './contract';

export type Balance = Schemas['Balance'];

export const BALANCE_QUERY_KEY = ['user', 'balance'] as const;

/** The balance, or null when the call gave none (a session that ended). */
export async function getBalance(): Promise<Balance | null> {
  return dataOr(await apiGet<Balance>('user/getUserBalance'), null);
}
