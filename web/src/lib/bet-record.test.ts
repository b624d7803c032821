import { describe, expect, it } from 'vitest';
import { betLine, betPrices, sideLabel } from './bet-record';

describe('a bet as the lists show it', () => {
  it('names every side in words', () => {
    expect(['back', 'lay', 'yes', 'no'].map((s) => sideLabel(s as 'back'))).toEqual(['Back', 'Lay', 'Yes', 'No']);
  });

  it('shows the average matched price beside the one asked', () => {
    const bet = { side: 'back' as const, price: 3.75, avg_price_matched: 3.8, line: null };
    expect(betPrices(bet, 'match_odds')).toEqual({ asked: '3.75', matched: '3.80' });
    expect(betLine(bet, 'match_odds')).toBe('Back 3.80 (asked 3.75)');
    // Filled at the price asked: one price.
    expect(betLine({ ...bet, side: 'lay', price: 4, avg_price_matched: 4 }, 'match_odds')).toBe('Lay 4.00');
  });

  it('has no matched price while nothing matched', () => {
    const bet = { side: 'back' as const, price: 50, avg_price_matched: null, line: null };
    expect(betPrices(bet, 'match_odds')).toEqual({ asked: '50.00', matched: null });
    expect(betLine(bet, 'match_odds')).toBe('Back 50.00');
  });

  it('reads a fancy bet as side, line and rate, and a bookmaker bet as its rate', () => {
    expect(betLine({ side: 'yes', price: 100, avg_price_matched: 100, line: 49 }, 'fancy')).toBe('Yes 49 @ 100');
    expect(betLine({ side: 'no', price: 90, avg_price_matched: null, line: 48 })).toBe('No 48 @ 90');
    expect(betLine({ side: 'lay', price: 242, avg_price_matched: 242, line: null }, 'bookmaker')).toBe('Lay 242');
  });
});
