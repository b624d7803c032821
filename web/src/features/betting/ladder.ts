// The exchange price ladder (ARCHITECTURE.md §2, crates/core/src/odds.rs): the only odds an
// exchange order may carry. Prices are held as integer hundredths (1.50 is 150) so stepping
// and checking never touch floating point. ladder-vectors.test.ts holds it to the vectors the
// Rust core writes (crates/core/tests/ladder_vectors.rs), so the two cannot drift apart.
import { i18n } from '../../i18n';

/** (last price of the segment, step), both in hundredths; the first segment starts at 1.01. */
const SEGMENTS: readonly (readonly [number, number])[] = [
  [200, 1],
  [300, 2],
  [400, 5],
  [600, 10],
  [1_000, 20],
  [2_000, 50],
  [3_000, 100],
  [5_000, 200],
  [10_000, 500],
  [100_000, 1_000],
];

/** Every valid price in hundredths, ascending: 1.01 … 1000, 350 of them. */
export const LADDER: readonly number[] = (() => {
  const prices: number[] = [];
  let price = 100;
  for (const [last, step] of SEGMENTS) {
    while (price < last) {
      price += step;
      prices.push(price);
    }
  }
  return prices;
})();

export const MIN_PRICE = LADDER[0];
export const MAX_PRICE = LADDER[LADDER.length - 1];

/**
 * Reads decimal odds text exactly ("2", "2.5", "2.02", "1000") into hundredths; null when it
 * is not a plain number with at most two decimals (letters, "2.015", "-3", "").
 */
export function parseOddsText(text: string): number | null {
  const match = /^\s*(\d{1,7})(?:\.(\d{1,2})0*)?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Hundredths as the slip shows them: always two decimals (2.00, 2.02, 1000.00). */
export function formatOdds(hundredths: number): string {
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}

export function isOnLadder(hundredths: number): boolean {
  return LADDER.includes(hundredths);
}

/** The valid prices at or just below and at or just above `hundredths`. */
export function nearestPrices(hundredths: number): { below: number | null; above: number | null } {
  let below: number | null = null;
  let above: number | null = null;
  for (const price of LADDER) {
    if (price <= hundredths) below = price;
    if (price >= hundredths && above === null) above = price;
  }
  return { below, above };
}

/**
 * One tick up: the next ladder price above `hundredths` (an off-ladder price goes to the
 * nearest valid one above). Stays at 1000.
 */
export function tickUp(hundredths: number): number {
  return LADDER.find((price) => price > hundredths) ?? MAX_PRICE;
}

/** One tick down: the next ladder price below (off-ladder: the nearest below). Stays at 1.01. */
export function tickDown(hundredths: number): number {
  for (let i = LADDER.length - 1; i >= 0; i -= 1) {
    if (LADDER[i] < hundredths) return LADDER[i];
  }
  return MIN_PRICE;
}

/** Why odds text is not a price an exchange order may carry, in the bettor's words; null if it is. */
export function oddsProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return i18n.t('betting:problem.enterOdds');
  if (!/^\d{1,7}(\.\d{1,12})?$/.test(trimmed)) return i18n.t('betting:problem.oddsNumber');
  const exact = parseOddsText(trimmed);
  // More than two decimals that matter (2.015): judge by the value, as the server does.
  const low = exact ?? Math.floor(Number(trimmed) * 100);
  const high = exact ?? low + 1;
  if (high < MIN_PRICE || low > MAX_PRICE || (exact === null && (low < MIN_PRICE || high > MAX_PRICE))) {
    return i18n.t('betting:problem.oddsRange', { min: formatOdds(MIN_PRICE), max: formatOdds(MAX_PRICE) });
  }
  if (exact === null || !isOnLadder(exact)) {
    const below = nearestPrices(low).below ?? MIN_PRICE;
    const above = nearestPrices(high).above ?? MAX_PRICE;
    return i18n.t('betting:problem.oddsInvalid', { odds: trimmed, below: formatOdds(below), above: formatOdds(above) });
  }
  return null;
}
