// Quick betting's preferences: one-click betting with its stake, and which moves of a bookmaker's
// rate or a fancy's line the bettor accepts without being asked. The call and its hooks are the
// app's (api/preferences.ts, hooks/usePreferences.ts: the safer-gambling page saves its reality
// check there too); what they mean to a bet is here.
import type { HousePrice } from './selection';
import type { BetSide } from './api';
import type { RateChanges } from '../../api/preferences';

export {
  DEFAULT_PREFERENCES,
  PREFERENCES_KEY,
  getPreferences,
  savePreferences,
  type Preferences,
  type PreferencesInput,
  type RateChanges,
} from '../../api/preferences';
export { usePreferences, usePreferencesRead, useSetPreferences } from '../../hooks/usePreferences';

/** How long a one-click bet waits before it is sent, with Undo shown. */
export const ONE_CLICK_UNDO_MS = 2_000;

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
