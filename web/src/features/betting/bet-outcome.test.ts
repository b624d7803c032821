import { describe, expect, it } from 'vitest';
import type { BetItem, PlaceBetResult } from './api';
import { outcomeNow } from './bet-outcome';

const waitingAnswer: PlaceBetResult = { bet_id: 5, status: 'unmatched', size_matched: 0, avg_price_matched: null, message: 'Bet placed, waiting to be matched.', repeated: false };
const item = (matched: number): BetItem => ({
  bet_id: 5, market_id: 1, selection_id: 11, side: 'back', price: 2.5, line: null, stake: 100, matched, remaining: 100 - matched,
  avg_price_matched: matched > 0 ? 2.5 : null, status: 'open', persistence: 'lapse', date: '2026-11-22T10:00:00.000Z',
});
const lists = (matched: number) => ({ matched: matched > 0 ? [item(matched)] : [], unmatched: matched < 100 ? [item(matched)] : [] });

describe('the outcome line of a placed bet', () => {
  it("says the placement's words while the open bets are older than the placement, or show the bet where it was left", () => {
    expect(outcomeNow(waitingAnswer, 1_000, undefined, 0)).toEqual({ status: 'unmatched', text: 'Bet placed, waiting to be matched.' });
    // Fetched before the placement: no word about this bet yet, which is not its end.
    expect(outcomeNow(waitingAnswer, 1_000, { matched: [], unmatched: [] }, 999)).toEqual({ status: 'unmatched', text: 'Bet placed, waiting to be matched.' });
    expect(outcomeNow(waitingAnswer, 1_000, lists(0), 1_001)?.text).toBe('Bet placed, waiting to be matched.');
  });

  it('follows the bet as more of it matches, in the engine’s words', () => {
    expect(outcomeNow(waitingAnswer, 1_000, lists(40), 2_000)).toEqual({ status: 'partially_matched', text: 'Bet partly matched: ₹40.00 matched, the rest waits in the book.' });
    expect(outcomeNow(waitingAnswer, 1_000, lists(100), 3_000)).toEqual({ status: 'matched', text: 'Bet matched.' });
    // A placement already matched keeps its own words: a repeated client_ref says so.
    const repeat: PlaceBetResult = { ...waitingAnswer, status: 'matched', size_matched: 100, message: 'This bet was already placed with the same client_ref.', repeated: true };
    expect(outcomeNow(repeat, 1_000, lists(100), 2_000)?.text).toBe('This bet was already placed: nothing new was placed.');
  });

  it('is gone once the bet is no longer open (lapsed, cancelled, settled)', () => {
    expect(outcomeNow(waitingAnswer, 1_000, { matched: [], unmatched: [] }, 2_000)).toBeNull();
  });
});
