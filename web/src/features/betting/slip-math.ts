// The bet slip's arithmetic: stake checks, the profit/liability preview and the projected P&L
// per runner. Money is integer minor units (1/100) and odds integer hundredths, so nothing
// here rounds through floating point; the server decides the real figures from stored bets.
import { i18n } from '../../i18n';
import { formatMinorMoney } from '../../lib/format';
import { parseStake, toMinor } from '../../lib/money';
import type { BetSide, MarketType } from './api';

/** How a market prices a bet: exchange ladder odds, a bookmaker rate, or a fancy line and rate. */
export type PricingKind = 'exchange' | 'bookmaker' | 'fancy';

export function pricingOf(type: MarketType): PricingKind {
  if (type === 'bookmaker') return 'bookmaker';
  if (type === 'fancy') return 'fancy';
  return 'exchange';
}

export { decimalText, parseStake } from '../../lib/money';

/** Why a typed stake cannot be sent, in words; null when it can. Limits are money numbers. */
export function stakeProblem(text: string, minStake: number, maxStake: number): string | null {
  if (text.trim() === '') return i18n.t('betting:problem.enterStake');
  const stake = parseStake(text);
  if (stake === null) return i18n.t('betting:problem.stakeNumber');
  if (stake === 0) return i18n.t('betting:problem.stakePositive');
  if (stake < Math.round(minStake * 100)) return i18n.t('betting:problem.minStake', { amount: formatMinorMoney(Math.round(minStake * 100)) });
  if (stake > Math.round(maxStake * 100)) return i18n.t('betting:problem.maxStake', { amount: formatMinorMoney(Math.round(maxStake * 100)) });
  return null;
}

/** `value × multiplier / divisor` rounded half to even (exact, through BigInt), as the server rounds. */
function mulDivHalfEven(value: number, multiplier: number, divisor: number): number {
  const big = BigInt(value) * BigInt(multiplier);
  const negative = big < 0n;
  const abs = negative ? -big : big;
  const d = BigInt(divisor);
  let quotient = abs / d;
  const twice = (abs % d) * 2n;
  if (twice > d || (twice === d && quotient % 2n === 1n)) quotient += 1n;
  return Number(negative ? -quotient : quotient);
}

/** `value / 100` rounded half to even, as the server rounds a bookmaker or fancy bet's profit. */
export function divideBy100HalfEven(value: number): number {
  return mulDivHalfEven(value, 1, 100);
}

/**
 * The commission on winnings of `winMinor`, as settlement takes it from a bettor's net
 * winnings on a market: `winnings × commission_bp / 10 000` rounded half to even, nothing on a
 * loss (core/exchange/settlement.rs). 150.00 won at 200 bp (2%) pays 3.00.
 */
export function commissionMinor(winMinor: number, commissionBp: number): number {
  return winMinor > 0 && commissionBp > 0 ? mulDivHalfEven(winMinor, commissionBp, 10_000) : 0;
}

/**
 * What one unit of price pays per 100 staked: exchange odds 2.50 (250 hundredths) pay 150,
 * a bookmaker or fancy rate of 45 pays 45.
 */
function winPer100(pricing: PricingKind, price: number): number {
  return pricing === 'exchange' ? price - 100 : price;
}

export interface Preview {
  /** What the bet wins if it wins, minor units. */
  profit: number;
  /** What the bet loses if it loses (the exposure it adds), minor units. */
  liability: number;
}

/**
 * The slip's preview. `price` is odds in hundredths on exchange markets and the rate on
 * bookmaker and fancy markets; `stake` is in minor units.
 * - back (and fancy yes): profit = stake × (odds − 1) or stake × rate / 100; liability = stake.
 * - lay (and fancy no): liability = stake × (odds − 1) or stake × rate / 100; profit = stake.
 * Exchange figures round down to a minor unit, bookmaker and fancy ones half to even, as the
 * server stores them.
 */
export function preview(pricing: PricingKind, side: BetSide, price: number, stake: number): Preview {
  const product = stake * winPer100(pricing, price);
  // An exchange fill's profit rounds down (docs/design-notes.md), a house bet's half to even.
  const win = pricing === 'exchange' ? Number(BigInt(product) / 100n) : divideBy100HalfEven(product);
  return side === 'back' || side === 'yes' ? { profit: win, liability: stake } : { profit: stake, liability: win };
}

export interface SlipBet {
  pricing: PricingKind;
  /** Place markets: a bet on one runner says nothing of the others. */
  placeMarket?: boolean;
  selectionId?: number;
  side: BetSide;
  price: number;
  stake: number;
}

/**
 * Each runner's P&L (minor units) if it wins, after the slip's bet: the stored position plus
 * what the bet adds. Backing runner s wins its profit when s wins and loses the stake
 * otherwise; laying is the mirror.
 */
export function projectPositions(
  runners: { selection_id: number; position: number }[],
  bet: SlipBet,
): Map<number, number> {
  const { profit, liability } = preview(bet.pricing, bet.side, bet.price, bet.stake);
  const projected = new Map<number, number>();
  for (const runner of runners) {
    const chosen = runner.selection_id === bet.selectionId;
    let delta: number;
    if (bet.side === 'back') delta = chosen ? profit : -bet.stake;
    else delta = chosen ? -liability : bet.stake;
    if (bet.placeMarket && !chosen) delta = 0;
    projected.set(runner.selection_id, toMinor(runner.position) + delta);
  }
  return projected;
}
