// Quick betting's preferences (user/preferences, crates/api/src/preferences.rs): one-click
// betting with its stake, and which moves of a bookmaker's rate or a fancy's line the bettor
// accepts without being asked. Kept on the server so they follow the bettor to any device.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost, dataOr } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { HousePrice } from './selection';
import type { BetSide } from './api';

export type Preferences = Schemas['PreferencesData'];
export type RateChanges = Schemas['RateChanges'];
/** What user/preferences takes (Schemas['PreferencesRequest']), the stake as exact text like every amount the app sends. */
export interface PreferencesInput {
  one_click?: boolean;
  one_click_stake?: string;
  accept_rate_changes?: RateChanges;
}

export const PREFERENCES_KEY = ['user', 'preferences'] as const;
export const DEFAULT_PREFERENCES: Preferences = { one_click: false, one_click_stake: null, accept_rate_changes: 'exact' };
/** How long a one-click bet waits before it is sent, with Undo shown. */
export const ONE_CLICK_UNDO_MS = 2_000;

export async function getPreferences(): Promise<Preferences> {
  return dataOr(await apiGet<Preferences>('user/preferences'), DEFAULT_PREFERENCES);
}

export async function savePreferences(input: PreferencesInput): Promise<{ message: string; data: Preferences | null }> {
  const answer = await apiPost<Preferences>('user/preferences', input);
  return { message: answer.message, data: dataOr(answer, null) };
}

/** The bettor's preferences (the defaults until read), and whether they were read yet. */
export function usePreferencesRead(): { preferences: Preferences; read: boolean } {
  const query = useQuery({ queryKey: PREFERENCES_KEY, queryFn: getPreferences, staleTime: 60_000 });
  return { preferences: query.data ?? DEFAULT_PREFERENCES, read: query.data !== undefined };
}

export function usePreferences(): Preferences {
  return usePreferencesRead().preferences;
}

/** Saves sent so far in this tab: only the answer of the newest speaks for the preferences. */
let savesSent = 0;

/**
 * Saves some preferences and keeps the answer as the preferences read, unless a newer save was
 * sent meanwhile (`latest` false): answers can come back out of order (the stake's save on
 * blur, then the one-click toggle's at once), and an older one would undo the newer choice.
 */
export function useSetPreferences() {
  const client = useQueryClient();
  return async (input: PreferencesInput) => {
    const sent = ++savesSent;
    const answer = await savePreferences(input);
    const latest = sent === savesSent;
    if (answer.data && latest) client.setQueryData(PREFERENCES_KEY, answer.data);
    return { ...answer, latest };
  };
}

/**
 * Whether a bettor accepting `changes` takes a move of the posted price from `from` to `to`
 * without being asked, by the server's rule (crates/engine's `accepts`): a back's or Yes's
 * higher rate and a Yes's lower line are better; a lay's or No's lower rate and a No's higher
 * line are better.
 */
export function acceptsMove(changes: RateChanges, side: BetSide, from: HousePrice, to: HousePrice): boolean {
  if (changes === 'any') return true;
  if (changes === 'exact') return false;
  const backing = side === 'back' || side === 'yes';
  const rateOk = backing ? to.rate >= from.rate : to.rate <= from.rate;
  const lineOk = from.line === undefined || to.line === undefined || (backing ? to.line <= from.line : to.line >= from.line);
  return rateOk && lineOk;
}
