// A runner's full ladder as the page draws it: every one of the 350 ladder steps, lowest price
// first (the money to back sits above the money to lay, as on Betfair's ladder), with what the
// server said of the few prices that have something on them (market/ladder answers only those).
// Money stays as the server sends it (rupees with 2 decimals); the page formats it.
import type { Ladder } from './api';
import { formatSize } from '../../lib/size';
import { LADDER } from './ladder';

export interface LadderRow {
  /** The price in hundredths (150 is 1.50). */
  hundredths: number;
  /** Decimal odds, as a slip takes them. */
  price: number;
  /** Money available to back here (others' lays). */
  backSize: number;
  /** Money available to lay here (others' backs). */
  laySize: number;
  traded: number;
  /** The caller's own unmatched back and lay bets here. */
  myBack: number;
  myLay: number;
  /** The runner's last traded price. */
  last: boolean;
}

const toHundredths = (price: number) => Math.round(price * 100);

/** Every ladder step, lowest first, filled in from the server's levels. */
export function ladderRows(ladder: Pick<Ladder, 'levels' | 'last_traded_price'>): LadderRow[] {
  const levels = new Map(ladder.levels.map((level) => [toHundredths(level.price), level]));
  const last = ladder.last_traded_price === null ? null : toHundredths(ladder.last_traded_price);
  return LADDER.map((hundredths) => {
    const level = levels.get(hundredths);
    return {
      hundredths,
      price: hundredths / 100,
      backSize: level?.back_size ?? 0,
      laySize: level?.lay_size ?? 0,
      traded: level?.traded ?? 0,
      myBack: level?.my_back ?? 0,
      myLay: level?.my_lay ?? 0,
      last: hundredths === last,
    };
  });
}

/** Where the ladder opens: the last traded price; else between the best prices to back and to lay; else 2.00. */
export function focusIndex(rows: readonly LadderRow[]): number {
  const last = rows.findIndex((row) => row.last);
  if (last >= 0) return last;
  // The best price to back is the highest with money to back; the best to lay the lowest with money to lay.
  let bestBack = -1;
  rows.forEach((row, index) => {
    if (row.backSize > 0) bestBack = index;
  });
  const bestLay = rows.findIndex((row) => row.laySize > 0);
  if (bestBack >= 0 && bestLay >= 0) return Math.round((bestBack + bestLay) / 2);
  if (bestBack >= 0) return bestBack;
  if (bestLay >= 0) return bestLay;
  return rows.findIndex((row) => row.hundredths === 200);
}

/** The largest traded volume of any price: the traded column's bars are drawn against it. */
export function mostTraded(rows: readonly LadderRow[]): number {
  return rows.reduce((most, row) => Math.max(most, row.traded), 0);
}

/**
 * Money in a ladder cell, as short as it stays exact for a bettor's own orders: up to 9,999.99
 * with its paise when it has any (2.5 → "2.50", 100 → "100"), then whole thousands as "k" as
 * price boxes show sizes (12.3k). Nothing for 0.
 */
export function ladderAmount(amount: number): string {
  if (amount <= 0) return '';
  if (amount >= 10_000) return formatSize(amount);
  const minor = Math.round(amount * 100);
  return minor % 100 === 0 ? String(minor / 100) : (minor / 100).toFixed(2);
}
