import { describe, expect, it } from 'vitest';
import type { MarketBook } from '../../api/match-stream';
import { acceptRate, placeBody, rateChange, slipFor, slipProblems } from './selection';

const base = { match_id: 1, in_play: false, bet_delay_s: 0, min_stake: 100, max_stake: 500000, total_matched: null, commission_bp: 0, line_no: null, rate_no: null, line_yes: null, rate_yes: null, book: [] };

function bookmaker(back: number | null): MarketBook {
  return {
    ...base,
    market_id: 2,
    name: 'Bookmaker',
    type: 'bookmaker',
    status: 'open',
    runners: [{ selection_id: 21, name: 'India', back: back === null ? [] : [{ price: back, size: 500000 }], lay: [], position: 0, removed: false }],
  };
}

describe('a house rate in the slip', () => {
  it('is taken at the click and sent as taken, never the one posted later', () => {
    const slip = { ...slipFor({ marketId: 2, selectionId: 21, side: 'back' }, bookmaker(251)), stakeText: '100' };
    const moved = bookmaker(242);
    expect(rateChange(moved, slip)?.question).toBe('Rate changed from 251 to 242 — accept?');
    expect(slipProblems(moved, slip).map((p) => p.field)).toEqual(['rate']);
    expect(placeBody(moved, slip).price).toBe('251');
    const accepted = acceptRate(moved, slip);
    expect(rateChange(moved, accepted)).toBeNull();
    expect(slipProblems(moved, accepted)).toEqual([]);
    expect(placeBody(moved, accepted).price).toBe('242');
  });

  it('asks before taking a rate posted after a click on an empty one, and names the side in words', () => {
    const slip = { ...slipFor({ marketId: 2, selectionId: 21, side: 'back' }, bookmaker(null)), stakeText: '100' };
    expect(slipProblems(bookmaker(null), slip)).toEqual([{ field: 'odds', message: 'No Back rate is offered now.' }]);
    expect(slipProblems(bookmaker(250), slip)).toEqual([{ field: 'rate', message: 'The rate is now 250 — accept?' }]);
  });
});

describe('a non-runner in the slip', () => {
  it('is refused in words: a withdrawn runner takes no bets', () => {
    const open = bookmaker(251);
    const slip = { ...slipFor({ marketId: 2, selectionId: 21, side: 'back' }, open), stakeText: '100' };
    expect(slipProblems(open, slip)).toEqual([]);
    const withdrawn: MarketBook = { ...open, runners: open.runners.map((r) => ({ ...r, back: [], removed: true })) };
    expect(slipProblems(withdrawn, slip)[0]).toEqual({ field: 'market', message: 'This runner was withdrawn (a non-runner) and takes no bets.' });
  });
});
