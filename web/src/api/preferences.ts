// The bettor's preferences (user/preferences, crates/api/src/preferences.rs), kept on the server so
// they follow the bettor to any device: quick betting's (one-click betting with its stake, which
// moves of a bookmaker's rate or a fancy's line are taken unasked) and how often the reality check
// reminds them of the time (docs/api.md "Safer gambling"). Betting and the safer-gambling page
// both read and save them, so the call and its cache key live here (hooks/usePreferences.ts).
import { apiGet, apiPost, dataOr } from './client';
import type { Schemas } from './contract';

/** The reality check's intervals the server takes, in minutes. */
export const REALITY_CHECK_MINUTES = [15, 30, 45, 60, 90, 120] as const;
export type RealityCheckMinutes = (typeof REALITY_CHECK_MINUTES)[number];
export const DEFAULT_REALITY_CHECK_MINUTES: RealityCheckMinutes = 60;

/**
 * What user/preferences answers. `reality_check_minutes` is written by hand until the server's
 * OpenAPI document has it (schema.ts); optional, as a server without it leaves it out.
 */
export type Preferences = Schemas['PreferencesData'] & { reality_check_minutes?: RealityCheckMinutes };
export type RateChanges = Schemas['RateChanges'];
/** What user/preferences takes (Schemas['PreferencesRequest']), the stake as exact text like every amount the app sends; fields left out keep their value. */
export interface PreferencesInput {
  one_click?: boolean;
  one_click_stake?: string;
  accept_rate_changes?: RateChanges;
  reality_check_minutes?: RealityCheckMinutes;
}

export const PREFERENCES_KEY = ['user', 'preferences'] as const;
export const DEFAULT_PREFERENCES: Preferences = {
  one_click: false,
  one_click_stake: null,
  accept_rate_changes: 'exact',
  reality_check_minutes: DEFAULT_REALITY_CHECK_MINUTES,
};

export async function getPreferences(): Promise<Preferences> {
  return dataOr(await apiGet<Preferences>('user/preferences'), DEFAULT_PREFERENCES);
}

export async function savePreferences(input: PreferencesInput): Promise<{ message: string; data: Preferences | null }> {
  const answer = await apiPost<Preferences>('user/preferences', input);
  return { message: answer.message, data: dataOr(answer, null) };
}
