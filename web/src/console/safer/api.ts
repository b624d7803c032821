// A client's safer gambling as its agents see it (docs/api.md "Safer gambling"): its own limits,
// waiting changes, what is left and its break, read-only (console/account/safer: nobody but the
// bettor changes them, nobody lifts a break). The dashboard's counts come with console/dashboard
// (dashboard/api.ts), the operator's defaults with the settings (settings/api.ts).
import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type AccountSafer = Schemas['AccountSafer'];
export type PendingItem = Schemas['PendingItem'];
export type LeftItem = Schemas['LeftItem'];
export type BreakItem = Schemas['BreakItem'];
export type LimitKind = Schemas['LimitKind'];
export type LimitPeriod = Schemas['Period'];

export const saferAccountKey = (userId: number) => ['console', 'account', userId, 'safer'] as const;

/** A downline account's limits, waiting changes, what is left and its break (404 outside the caller's downline). */
export function accountSafer(userId: number): Promise<Answer<AccountSafer>> {
  return apiPost<AccountSafer>('console/account/safer', { user_id: userId } satisfies Schemas['AccountSaferRequest']);
}
