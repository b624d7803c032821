// How a bet reads wherever it is listed (open bets, Current Bets, the bets a statement line
// settled): the side in words, and the price asked beside the price matched. Shared by the
// betting and report features, which do not import each other.
import type { Schemas } from '../api/contract';
import { i18n } from '../i18n';

export type BetSide = Schemas['BetSide'];
export type MarketType = Schemas['MarketType'];

/** What a listed bet says about its price (BetItem and the report rows that extend it). */
export interface PricedBet {
  side: BetSide;
  price: number;
  avg_price_matched: number | null;
  line: number | null;
}

/** Back, Lay, Yes or No: never the wire's lower-case word. */
export function sideLabel(side: BetSide): string {
  return i18n.t(`common:side.${side}`);
}

/** Exchange odds with 2 decimals (3.8 → "3.80"); a house rate as the whole number it is. */
function priceText(price: number, houseRate: boolean): string {
  if (houseRate) return String(Math.round(price));
  const hundredths = Math.round(price * 100);
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}

/** Whether a market prices bets as a house rate (bookmaker, fancy) rather than exchange odds. */
export function isHouseRate(type: MarketType | undefined, bet: Pick<PricedBet, 'line'>): boolean {
  return bet.line !== null || type === 'bookmaker' || type === 'fancy';
}

/**
 * The price asked and the price matched, as text: "3.75" and "3.80" for an exchange back filled
 * better than asked; "49 @ 100" for both on a fancy (the line at the rate); the rate for both on
 * a bookmaker. `matched` is null while nothing of the bet matched.
 */
export function betPrices(bet: PricedBet, type?: MarketType): { asked: string; matched: string | null } {
  const house = isHouseRate(type, bet);
  const show = (price: number) => (bet.line !== null ? `${bet.line} @ ${priceText(price, true)}` : priceText(price, house));
  return { asked: show(bet.price), matched: bet.avg_price_matched === null ? null : show(bet.avg_price_matched) };
}

/** One line for a bet: "Back 3.80 (asked 3.75)", "Back 3.75" until matched, "Yes 49 @ 100", "Lay 242". */
export function betLine(bet: PricedBet, type?: MarketType): string {
  const { asked, matched } = betPrices(bet, type);
  if (matched === null || matched === asked) return `${sideLabel(bet.side)} ${asked}`;
  return i18n.t('common:betLine.asked', { side: sideLabel(bet.side), matched, asked });
}
