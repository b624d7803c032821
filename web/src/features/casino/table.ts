// A casino table's arithmetic and layout, kept apart from the page so each rule is tested alone.
import { i18n } from '../../i18n';
import type { CasinoBet, CasinoMarket, DealingView, HandView, RoundState } from './table-api';

/**
 * Betting time left, in ms, `nowMs` (local clock) after an answer that said `closeInMs` arrived
 * at `receivedAtMs` (local clock). Only local times are subtracted, so a server clock that is
 * off, or text dates in another zone, do not move the countdown. Never negative.
 */
export function msLeft(closeInMs: number, receivedAtMs: number, nowMs: number): number {
  return Math.max(0, closeInMs - Math.max(0, nowMs - receivedAtMs));
}

/**
 * Whole seconds left, rounded up like the server's `seconds_left`: 1 in the last second, and 0
 * exactly when betting closes, never before.
 */
export function secondsLeft(closeInMs: number, receivedAtMs: number, nowMs: number): number {
  return Math.ceil(msLeft(closeInMs, receivedAtMs, nowMs) / 1000);
}

/** True while the table takes bets: the server said betting and the window has not run out since. */
export function isBettingOpen(state: Pick<RoundState, 'status' | 'close_in_ms'>, receivedAtMs: number, nowMs: number): boolean {
  return state.status === 'betting' && msLeft(state.close_in_ms, receivedAtMs, nowMs) > 0;
}

/** A market takes no bets once the window closes (by the server's word or the local countdown). */
export function isMarketSuspended(market: CasinoMarket, bettingOpen: boolean): boolean {
  return !bettingOpen || market.suspended;
}

/** The status to show: "closed" as soon as the local countdown runs out, before the next poll says so. */
export function shownStatus(state: Pick<RoundState, 'status'>, bettingOpen: boolean): RoundState['status'] {
  return state.status === 'betting' && !bettingOpen ? 'closed' : state.status;
}

/** Decimal odds text ("1.98", "875.00", "2") in hundredths; null when it is not odds. */
export function oddsHundredths(text: string): number | null {
  const match = /^\s*(\d{1,6})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/**
 * What a winning bet returns, stake included, in minor units: stake × odds rounded down, as the
 * server pays (crates/casino `payout`).
 */
export function potentialReturn(stakeMinor: number, oddsText: string): number {
  const odds = oddsHundredths(oddsText);
  if (odds === null) return 0;
  return Math.floor((stakeMinor * odds) / 100);
}

/** How a bet of this round stands, in words (in the app's language at the call). */
export function betStatusLabel(status: string): string {
  switch (status) {
    case 'open':
      return i18n.t('casino:betStatus.open');
    case 'won':
      return i18n.t('casino:betStatus.won');
    case 'lost':
      return i18n.t('casino:betStatus.lost');
    case 'push':
      return i18n.t('casino:betStatus.push');
    case 'half_lost':
      return i18n.t('casino:betStatus.halfLost');
    default:
      return status;
  }
}

/** A short label for a result chip: "Player A" → "A", "Dragon" → "D", "17 Black" → "17". */
export function shortWinner(winner: string): string {
  const text = winner.trim();
  if (text === '') return '-';
  if (/^Player /.test(text)) return text.slice('Player '.length);
  if (/^Total \d/.test(text)) return text.slice('Total '.length);
  const number = /^(\d+)\s/.exec(text);
  if (number) return number[1];
  const words = text.split(/\s+/);
  if (words.length === 1) return text.length <= 4 ? text : text[0].toUpperCase();
  return words
    .map((w) => w[0])
    .join('')
    .slice(0, 3)
    .toUpperCase();
}

/** One position of a table before the deal: its name and how many cards it gets. */
export interface Seat {
  name: string;
  cards: number;
}

/** The table of each game (by rules code) before its cards are shown; the rest show a plain board. */
const SEATS: Record<string, Seat[]> = {
  teen20: [{ name: 'Player A', cards: 3 }, { name: 'Player B', cards: 3 }],
  teen1day: [{ name: 'Player A', cards: 3 }, { name: 'Player B', cards: 3 }],
  muflis: [{ name: 'Player A', cards: 3 }, { name: 'Player B', cards: 3 }],
  teentest: [{ name: 'Tiger', cards: 3 }, { name: 'Lion', cards: 3 }, { name: 'Dragon', cards: 3 }],
  dt1day: [{ name: 'Dragon', cards: 1 }, { name: 'Tiger', cards: 1 }],
  teen2card: [{ name: 'Player A', cards: 2 }, { name: 'Player B', cards: 2 }],
  hilow: [{ name: 'Base card', cards: 1 }, { name: 'Next card', cards: 1 }],
  poker: [{ name: 'Player A', cards: 2 }, { name: 'Player B', cards: 2 }, { name: 'Board', cards: 5 }],
  queen: [{ name: 'Total 0', cards: 1 }, { name: 'Total 1', cards: 1 }, { name: 'Total 2', cards: 1 }, { name: 'Total 3', cards: 1 }],
  baccarat: [{ name: 'Player', cards: 2 }, { name: 'Banker', cards: 2 }],
  aaa: [{ name: 'Card', cards: 1 }],
  bollywood: [{ name: 'Card', cards: 1 }],
  trio: [{ name: 'Cards', cards: 3 }],
  andarbahar: [{ name: 'Joker', cards: 1 }, { name: 'Andar', cards: 1 }, { name: 'Bahar', cards: 1 }],
  roulette: [{ name: 'Pocket', cards: 0 }],
  worli: [{ name: 'Open', cards: 0 }, { name: 'Close', cards: 0 }],
};

/** The client's game codes (casino-games.ts) that differ from the rules codes. */
const RULES_CODE: Record<string, string> = {
  teen: 'teen1day',
  teen9: 'teentest',
  dt6: 'dt1day',
  teen2: 'teen2card',
  btable: 'bollywood',
  ab20: 'andarbahar',
  teenmuf: 'muflis',
};

/** A position on the table as drawn: its cards (a missing card is drawn face down). */
export interface TableSeat {
  name: string;
  /** A code per card shown, null for a card still face down. */
  cards: (string | null)[];
  description: string;
  /** While dealing: the seat's result is a draw (roulette's pocket, a matka draw), not cards. */
  draw?: boolean;
}

/**
 * The table to draw. With a result, its hands as dealt. Before, the game's seats with every card
 * face down except the open ones (Hi-Low's base card, Andar Bahar's joker), which fill the first
 * seats in dealing order. A game without a known layout shows its cards in one row.
 */
export function tableSeats(state: Pick<RoundState, 'game_code' | 'cards' | 'result'> & Partial<Pick<RoundState, 'game'>>): TableSeat[] {
  const hands: HandView[] = state.result?.hands ?? [];
  if (hands.length > 0) {
    return hands.map((h) => ({ name: h.name, cards: h.cards, description: h.description }));
  }
  const code = state.game ?? RULES_CODE[state.game_code] ?? state.game_code;
  const seats = SEATS[code];
  if (!seats) return state.cards.length > 0 ? [{ name: 'Cards', cards: state.cards, description: '' }] : [];
  const open = [...state.cards];
  return seats.map((seat) => ({
    name: seat.name,
    cards: Array.from({ length: seat.cards }, () => open.shift() ?? null),
    description: '',
  }));
}

/**
 * The table `elapsedMs` into a deal: each seat with the cards dealt to it so far (in dealing
 * order), a draw (roulette's pocket) once its step is shown. Nothing is drawn for a card still
 * to come, so a long Andar Bahar run does not give its length away.
 */
export function dealtSeats(dealing: DealingView, elapsedMs: number): TableSeat[] {
  const seats: TableSeat[] = dealing.seats.map((name, i) => ({ name, cards: [], description: '', draw: dealing.steps.some((s) => s.seat === i && s.card === null) }));
  for (const step of dealing.steps) {
    const seat = seats[step.seat];
    if (step.at_ms > elapsedMs || !seat) continue;
    if (step.card) seat.cards.push(step.card);
    if (step.draw) seat.description = step.draw;
  }
  return seats;
}

/** When the next card of a deal is shown, in ms after the deal began; null once all are. */
export function nextStepAtMs(dealing: DealingView, elapsedMs: number): number | null {
  const later = dealing.steps.map((s) => s.at_ms).filter((at) => at > elapsedMs);
  return later.length > 0 ? Math.min(...later) : null;
}

/** What the caller's winning bets of the round returned, stake included, in minor units (0: none won). */
export function wonMinor(bets: readonly CasinoBet[]): number {
  return bets.filter((b) => b.status === 'won').reduce((sum, b) => sum + Math.round(Number(b.payout ?? 0) * 100), 0);
}

/** The colour of a result chip: one per outcome of a game, Tie green, roulette by its pocket's colour. */
export type ResultTone = 'red' | 'yellow' | 'blue' | 'purple' | 'green' | 'black' | 'plain';

const TONES: Record<string, ResultTone> = {
  Dragon: 'red',
  Tiger: 'yellow',
  Lion: 'blue',
  'Player A': 'red',
  'Player B': 'yellow',
  Player: 'blue',
  Banker: 'red',
  Andar: 'red',
  Bahar: 'yellow',
  High: 'red',
  Low: 'yellow',
  Amar: 'red',
  Akbar: 'yellow',
  Anthony: 'blue',
  Tie: 'green',
  Same: 'green',
};
const QUEEN_TONES: ResultTone[] = ['red', 'yellow', 'blue', 'purple'];

export function resultTone(winner: string): ResultTone {
  const text = winner.trim();
  const named = TONES[text];
  if (named) return named;
  const pocket = /^\d+ (Red|Black|Green)$/.exec(text);
  if (pocket) return pocket[1].toLowerCase() as ResultTone;
  const total = /^Total (\d)$/.exec(text);
  if (total) return QUEEN_TONES[Number(total[1])] ?? 'plain';
  return 'plain';
}

/** Markets grouped by family, in the order the server posts them. */
export function marketFamilies(markets: CasinoMarket[]): { family: string; markets: CasinoMarket[] }[] {
  const groups: { family: string; markets: CasinoMarket[] }[] = [];
  for (const market of markets) {
    const last = groups.find((g) => g.family === market.family);
    if (last) last.markets.push(market);
    else groups.push({ family: market.family, markets: [market] });
  }
  return groups;
}

/** "pair-plus" → "Pair plus", "six-line" → "Six line". */
export function familyTitle(family: string): string {
  const words = family.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
