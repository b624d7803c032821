// The header's balance (spec §4): fetched every 5,000 ms, also after an error (silently),
// and at once after a successful bet.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { BALANCE_QUERY_KEY, getBalance, type Balance } from '../api/balance';
import { LIMITS_KEY } from '../api/limits';
import { queryClient } from '../lib/query-client';
import { SESSION_KEYS, readJson, writeJson } from '../lib/storage';

export const BALANCE_REFRESH_MS = 5000;

async function fetchBalance(): Promise<Balance | null> {
  const balance = await getBalance();
  if (balance) writeJson(sessionStorage, SESSION_KEYS.exposureBalance, balance);
  return balance;
}

/** `enabled` is false on the login page (spec §4). */
export function useBalance(enabled: boolean) {
  return useQuery({
    queryKey: BALANCE_QUERY_KEY,
    queryFn: fetchBalance,
    enabled,
    // An interval, not a retry: an error waits the same 5 s and tries again, quietly.
    refetchInterval: BALANCE_REFRESH_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
    retry: false,
    // The last balance of this browser session shows until the first answer lands.
    placeholderData: () => readJson<Balance>(sessionStorage, SESSION_KEYS.exposureBalance) ?? undefined,
  });
}

/**
 * For the bet slip: a bet was placed (or settled), so the balance changed now. Cancels the wait
 * and refetches at once; the 5 s interval carries on from there. What the bettor's loss limit
 * leaves moved with it, so that is read again too (where a page shows it). `client`: the
 * provider's client (the app's one by default).
 */
export function refreshBalanceNow(client: QueryClient = queryClient): Promise<void> {
  void client.invalidateQueries({ queryKey: LIMITS_KEY });
  return client.refetchQueries({ queryKey: BALANCE_QUERY_KEY });
}
