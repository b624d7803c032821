// What the bet slip holds and what it may send: the picked market, runner and side, the odds
// and stake as typed, and why (in words) it cannot be placed yet.
import type { MarketBook } from '../../api/match-stream';
import { i18n } from '../../i18n';
import type { BetSide, PlaceBetInput } from './api';
import { formatOdds, oddsProblem, parseOddsText } from './ladder';
import { acceptsMove, type RateChanges } from './preferences';
import { decimalText, parseStake, pricingOf, stakeProblem, type PricingKind, type SlipBet } from './slip-math';
import { sideLabel } from '../../lib/bet-record';

export interface Pick {
  marketId: number;
  /** The runner; none on a fancy. */
  selectionId?: number;
  side: BetSide;
  /** Exchange markets: the tapped price (decimal odds); none when an empty cell was tapped. */
  price?: number;
}

export interface SlipState {
  pick: Pick;
  /** Exchange odds as typed. */
  oddsText: string;
  stakeText: string;
  /**
   * House markets: the rate (and fancy line) the bettor clicked, which is what is sent. The slip
   * never follows a posted rate that moves: it asks ({@link rateChange}) and takes the new one
   * only when the bettor accepts. Null when nothing was posted at the click.
   */
  taken: HousePrice | null;
  /** Exchange markets: keep the unmatched part in play at the off (persist) instead of lapsing it. */
  keepInPlay?: boolean;
}

export interface HousePrice {
  rate: number;
  line?: number;
}

/** The slip for a click; on a house market it takes the rate posted at that moment. */
export function slipFor(pick: Pick, market?: MarketBook): SlipState {
  const taken = market && pricingOf(market.type) !== 'exchange' ? housePrice(market, pick) : null;
  return { pick, oddsText: pick.price ? formatOdds(Math.round(pick.price * 100)) : '', stakeText: '', taken };
}

/** A house price as the slip says it: "45", or a fancy's "49 @ 100". */
export function houseText(price: HousePrice): string {
  return price.line !== undefined ? `${price.line} @ ${price.rate}` : String(price.rate);
}

/**
 * A house market's posted rate (or fancy line) moved away from the one the slip took: what it
 * was, what it is, and the question the slip asks ("Rate changed from 251 to 242 — accept?").
 * Null on exchange markets, while the posted price is the one taken, and while none is posted.
 */
export function rateChange(market: MarketBook, slip: SlipState): { from: HousePrice; to: HousePrice; question: string } | null {
  if (pricingOf(market.type) === 'exchange') return null;
  const now = housePrice(market, slip.pick);
  const taken = slip.taken;
  if (!now || !taken || (now.rate === taken.rate && now.line === taken.line)) return null;
  const lineMoved = taken.line !== undefined && now.line !== taken.line;
  const words = { from: houseText(taken), to: houseText(now) };
  const question = lineMoved ? i18n.t('betting:problem.lineChanged', words) : i18n.t('betting:problem.rateChanged', words);
  return { from: taken, to: now, question };
}

/** The slip with the posted rate (and line) accepted as the one to bet at. */
export function acceptRate(market: MarketBook, slip: SlipState): SlipState {
  return { ...slip, taken: housePrice(market, slip.pick) };
}

/** The posted rate (and line) a house-market bet is taken at, as the market shows it now. */
export function housePrice(market: MarketBook, pick: Pick): HousePrice | null {
  if (market.type === 'fancy') {
    const line = pick.side === 'yes' ? market.line_yes : market.line_no;
    const rate = pick.side === 'yes' ? market.rate_yes : market.rate_no;
    return line === null || rate === null ? null : { rate, line };
  }
  const runner = market.runners.find((r) => r.selection_id === pick.selectionId);
  const level = pick.side === 'back' ? runner?.back[0] : runner?.lay[0];
  return level ? { rate: level.price } : null;
}

export function statusProblem(market: MarketBook): string | null {
  switch (market.status) {
    case 'open':
      return null;
    case 'ball_running':
      return i18n.t('betting:problem.ballRunning');
    case 'suspended':
      return i18n.t('betting:problem.suspended');
    default:
      return i18n.t('betting:problem.closed');
  }
}

/**
 * Why a press of Place Bet placed nothing, when the market (or the runner) took no bets at that
 * moment. Said in the past, so that it still reads true once the market has reopened: the slip
 * keeps it until the bettor acts, while a ball-running market reopens within seconds.
 */
export function notPlacedMessage(market: MarketBook, pick: Pick): string {
  if (isNonRunner(market, pick)) return i18n.t('betting:notPlaced.nonRunner');
  switch (market.status) {
    case 'ball_running':
      return i18n.t('betting:notPlaced.ballRunning');
    case 'suspended':
      return i18n.t('betting:notPlaced.suspended');
    default:
      return i18n.t('betting:notPlaced.closed');
  }
}

/** Whether the pick is of a withdrawn runner (a non-runner), which takes no bets. */
export function isNonRunner(market: MarketBook, pick: Pick): boolean {
  return market.type !== 'fancy' && market.runners.some((r) => r.selection_id === pick.selectionId && r.removed);
}

/** The bet the slip describes, when it is complete enough to preview. */
export function slipBet(market: MarketBook, slip: SlipState): SlipBet | null {
  const pricing: PricingKind = pricingOf(market.type);
  const stake = parseStake(slip.stakeText);
  if (stake === null) return null;
  let price: number | null;
  if (pricing === 'exchange') {
    price = oddsProblem(slip.oddsText) === null ? parseOddsText(slip.oddsText) : null;
  } else {
    price = slip.taken?.rate ?? null;
  }
  if (price === null) return null;
  return { pricing, placeMarket: market.type === 'place', selectionId: slip.pick.selectionId, side: slip.pick.side, price, stake };
}

/** Every reason the slip cannot be sent, first the most important; empty when it can. */
export function slipProblems(
  market: MarketBook,
  slip: SlipState,
  accept: RateChanges = 'exact',
): { field: 'market' | 'odds' | 'rate' | 'stake'; message: string }[] {
  const problems: { field: 'market' | 'odds' | 'rate' | 'stake'; message: string }[] = [];
  const status = isNonRunner(market, slip.pick) ? i18n.t('betting:problem.nonRunner') : statusProblem(market);
  if (status) problems.push({ field: 'market', message: status });
  if (pricingOf(market.type) === 'exchange') {
    const odds = oddsProblem(slip.oddsText);
    if (odds) problems.push({ field: 'odds', message: odds });
  } else {
    const posted = housePrice(market, slip.pick);
    const change = rateChange(market, slip);
    if (!posted) problems.push({ field: 'odds', message: i18n.t('betting:problem.noRate', { side: sideLabel(slip.pick.side) }) });
    // Nothing was posted at the click: the first rate offered is not taken unasked either,
    // unless the bettor accepts any change. A move the bettor accepts is not asked about: the
    // server strikes the bet at the rate posted then (accept_rate_changes).
    else if (!slip.taken && accept !== 'any') problems.push({ field: 'rate', message: i18n.t('betting:problem.rateNow', { rate: houseText(posted) }) });
    else if (change && !acceptsMove(accept, slip.pick.side, change.from, change.to)) problems.push({ field: 'rate', message: change.question });
  }
  const stake = stakeProblem(slip.stakeText, market.min_stake, market.max_stake);
  if (stake) problems.push({ field: 'stake', message: stake });
  return problems;
}

/** The request body (without client_ref) for a slip with no problems; `accept`: the rate moves the bettor takes unasked. */
export function placeBody(market: MarketBook, slip: SlipState, accept: RateChanges = 'exact'): Omit<PlaceBetInput, 'client_ref'> {
  const pricing = pricingOf(market.type);
  const house = pricing === 'exchange' ? null : (slip.taken ?? housePrice(market, slip.pick));
  const stake = parseStake(slip.stakeText) ?? 0;
  return {
    market_id: market.market_id,
    ...(market.type === 'fancy' ? {} : { selection_id: slip.pick.selectionId }),
    side: slip.pick.side,
    price: pricing === 'exchange' ? formatOdds(parseOddsText(slip.oddsText) ?? 0) : String(house?.rate ?? ''),
    ...(house?.line !== undefined ? { line: house.line } : {}),
    stake: decimalText(stake),
    persistence: slip.keepInPlay && pricing === 'exchange' ? 'persist' : 'lapse',
    ...(pricing === 'exchange' ? {} : { accept_rate_changes: accept }),
  };
}

/** An idempotency key per submission. crypto.randomUUID needs a secure context; getRandomValues does not. */
export function newClientRef(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
