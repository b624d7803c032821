// The table's rules worked by hand: the countdown from close_in_ms and the local arrival time,
// when markets stop taking bets, what a win returns, and how the table is laid out.
import { describe, expect, it } from 'vitest';
import { dealtSeats, isBettingOpen, isMarketSuspended, msLeft, nextStepAtMs, potentialReturn, resultTone, secondsLeft, shortWinner, shownStatus, tableSeats, wonMinor } from './table';
import type { CasinoBet, CasinoMarket, DealingView } from './table-api';

const ARRIVED = 1_000_000; // local ms when the answer arrived

describe('the countdown', () => {
  it('counts from close_in_ms and the local arrival time, rounding up like the server', () => {
    // 12 345 ms left when the answer arrived.
    expect(secondsLeft(12_345, ARRIVED, ARRIVED)).toBe(13);
    expect(secondsLeft(12_345, ARRIVED, ARRIVED + 345)).toBe(12);
    expect(secondsLeft(12_345, ARRIVED, ARRIVED + 346)).toBe(12);
    expect(secondsLeft(12_345, ARRIVED, ARRIVED + 1_345)).toBe(11);
    expect(msLeft(12_345, ARRIVED, ARRIVED + 2_000)).toBe(10_345);
  });

  it('reads 1 in the last millisecond and 0 exactly when betting closes', () => {
    expect(secondsLeft(5_000, ARRIVED, ARRIVED + 4_999)).toBe(1);
    expect(secondsLeft(5_000, ARRIVED, ARRIVED + 5_000)).toBe(0);
    expect(isBettingOpen({ status: 'betting', close_in_ms: 5_000 }, ARRIVED, ARRIVED + 4_999)).toBe(true);
    expect(isBettingOpen({ status: 'betting', close_in_ms: 5_000 }, ARRIVED, ARRIVED + 5_000)).toBe(false);
  });

  it('is never negative, and a clock read before the answer arrived does not add time', () => {
    expect(secondsLeft(5_000, ARRIVED, ARRIVED + 60_000)).toBe(0);
    expect(msLeft(5_000, ARRIVED, ARRIVED + 60_000)).toBe(0);
    expect(secondsLeft(0, ARRIVED, ARRIVED)).toBe(0);
    expect(msLeft(5_000, ARRIVED, ARRIVED - 3_000)).toBe(5_000);
  });
});

describe('suspended markets', () => {
  const market: CasinoMarket = { code: 'dragon', name: 'Dragon', family: 'dragon-tiger', odds: '2.00', price: 2, suspended: false };

  it('are suspended whenever the status is not betting', () => {
    for (const status of ['waiting', 'closed', 'result'] as const) {
      const open = isBettingOpen({ status, close_in_ms: 20_000 }, ARRIVED, ARRIVED);
      expect(open).toBe(false);
      expect(isMarketSuspended(market, open)).toBe(true);
      expect(shownStatus({ status }, open)).toBe(status);
    }
  });

  it('take bets while betting, unless the server suspends one, and close with the local countdown', () => {
    const open = isBettingOpen({ status: 'betting', close_in_ms: 20_000 }, ARRIVED, ARRIVED + 1_000);
    expect(isMarketSuspended(market, open)).toBe(false);
    expect(isMarketSuspended({ ...market, suspended: true }, open)).toBe(true);
    const late = isBettingOpen({ status: 'betting', close_in_ms: 20_000 }, ARRIVED, ARRIVED + 20_000);
    expect(isMarketSuspended(market, late)).toBe(true);
    expect(shownStatus({ status: 'betting' }, late)).toBe('closed');
  });
});

describe('the slip and the strip', () => {
  it('returns stake × odds rounded down to the paisa', () => {
    expect(potentialReturn(100_00, '1.98')).toBe(198_00);
    expect(potentialReturn(3_33, '1.95')).toBe(6_49); // 649.35 paise
    expect(potentialReturn(10_00, '875.00')).toBe(8_750_00);
    expect(potentialReturn(10_00, 'abc')).toBe(0);
  });

  it('shortens winners for the result chips', () => {
    expect(shortWinner('Player A')).toBe('A');
    expect(shortWinner('Dragon')).toBe('D');
    expect(shortWinner('Tie')).toBe('Tie');
    expect(shortWinner('17 Black')).toBe('17');
    expect(shortWinner('Total 2')).toBe('2');
    expect(shortWinner('Kis Kisko Pyaar Karoon')).toBe('KKP');
  });
});

describe('the table layout', () => {
  it('shows the open card and face-down backs before the deal', () => {
    expect(tableSeats({ game: 'hilow', game_code: 'hilow', cards: ['7H'], result: null })).toEqual([
      { name: 'Base card', cards: ['7H'], description: '' },
      { name: 'Next card', cards: [null], description: '' },
    ]);
    // A client code without the rules code still finds its table.
    expect(tableSeats({ game_code: 'dt6', cards: [], result: null }).map((s) => s.cards)).toEqual([[null], [null]]);
  });

  it("shows the result's hands once dealt", () => {
    const result = { winner: 'Tiger', hands: [{ name: 'Dragon', cards: ['2D'], description: '2' }, { name: 'Tiger', cards: ['KC'], description: '13' }] };
    expect(tableSeats({ game: 'dt1day', game_code: 'dt6', cards: ['2D', 'KC'], result })).toEqual([
      { name: 'Dragon', cards: ['2D'], description: '2' },
      { name: 'Tiger', cards: ['KC'], description: '13' },
    ]);
  });
});

describe('the deal', () => {
  // Andar Bahar: the joker open from the start, then Andar, Bahar, Andar 750 ms apart.
  const dealing: DealingView = {
    seats: ['Joker', 'Andar', 'Bahar'],
    steps: [
      { seat: 0, card: '7H', draw: null, at_ms: 0 },
      { seat: 1, card: '2S', draw: null, at_ms: 750 },
      { seat: 2, card: 'KD', draw: null, at_ms: 1500 },
      { seat: 1, card: '7C', draw: null, at_ms: 2250 },
    ],
    elapsed_ms: 0,
    ends_in_ms: 3000,
  };
  const cardsAt = (ms: number) => dealtSeats(dealing, ms).map((s) => s.cards.join(' '));

  it('shows each card from its moment on, in its seat, and nothing of the cards to come', () => {
    expect(cardsAt(0)).toEqual(['7H', '', '']);
    expect(cardsAt(749)).toEqual(['7H', '', '']);
    expect(cardsAt(1500)).toEqual(['7H', '2S', 'KD']);
    expect(cardsAt(5000)).toEqual(['7H', '2S 7C', 'KD']);
    expect(nextStepAtMs(dealing, 0)).toBe(750);
    expect(nextStepAtMs(dealing, 2250)).toBeNull();
  });

  it("shows a roulette pocket's draw once its step comes", () => {
    const spin: DealingView = { seats: ['Pocket'], steps: [{ seat: 0, card: null, draw: '17 Black', at_ms: 1200 }], elapsed_ms: 0, ends_in_ms: 2400 };
    expect(dealtSeats(spin, 1199)[0].description).toBe('');
    expect(dealtSeats(spin, 1200)[0]).toEqual({ name: 'Pocket', cards: [], description: '17 Black', draw: true });
    expect(dealtSeats(dealing, 0).map((s) => s.draw)).toEqual([false, false, false]);
  });
});

describe('the result', () => {
  const bet = (status: string, payout: number | null): CasinoBet => ({ bet_id: 1, round_id: 'r', match_id: 4, game_code: 'dt6', game_name: 'Dragon Tiger 1 Day', market: 'tiger', market_name: 'Tiger', odds: '2.00', stake: 100, payout, status: status as CasinoBet['status'], date: '' });

  it('adds up what the winning bets returned, and only those', () => {
    expect(wonMinor([bet('won', 200), bet('won', 16.5), bet('lost', 0), bet('push', 100)])).toBe(216_50);
    expect(wonMinor([bet('lost', 0)])).toBe(0);
  });

  it('colours each outcome: Dragon red, Tiger yellow, Tie green, a pocket by its colour', () => {
    expect(['Dragon', 'Tiger', 'Tie', 'Player A', 'Player B', 'Andar', 'Bahar'].map(resultTone)).toEqual(['red', 'yellow', 'green', 'red', 'yellow', 'red', 'yellow']);
    expect(['17 Black', '3 Red', '0 Green', 'Total 2'].map(resultTone)).toEqual(['black', 'red', 'green', 'blue']);
    expect(resultTone('Kis Kisko Pyaar Karoon')).toBe('plain');
  });
});
