// The header's balance and exposure toggles (spec §4): shown by default, kept per browser
// session; on narrow screens (under 993 px) the saved setting is restored at start.
import { isNarrowScreen } from '../../hooks/useIsNarrow';
import { SESSION_KEYS } from '../../lib/storage';

export type Figure = 'balance' | 'exposure';

const KEY: Record<Figure, string> = { balance: SESSION_KEYS.showBalance, exposure: SESSION_KEYS.showExposure };

export function initialVisibility(figure: Figure): boolean {
  if (!isNarrowScreen()) return true;
  return sessionStorage.getItem(KEY[figure]) !== 'false';
}

export function saveVisibility(figure: Figure, shown: boolean): void {
  sessionStorage.setItem(KEY[figure], String(shown));
}
