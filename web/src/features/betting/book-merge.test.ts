import { describe, expect, it } from 'vitest';
import type { MarketBook } from '../../api/match-stream';
import type { MatchDetail, OpenBets } from './api';
import { applyMarket, applySnapshot, changeTouchesCaller } from './book-merge';

const market = (id: number, overrides: Partial<MarketBook> = {}) =>
  ({
    market_id: id,
    match_id: 1,
    name: `M${id}`,
    type: 'match_odds',
    status: 'open',
    runners: [
      { selection_id: 1, name: 'A', back: [{ price: 2, size: 10 }], lay: [], position: 0 },
      { selection_id: 2, name: 'B', back: [], lay: [], position: 0 },
    ],
    book: [],
    ...overrides,
  }) as MarketBook;

const detail: MatchDetail = {
  match: {
    match_id: 1,
    name: 'A v B',
    match_name: 'A v B',
    open_date: '',
    match_Date: '',
    sport_id: 4,
    sport_name: 'Cricket',
    series_id: 1,
    series_name: '',
    is_active: 1,
    in_play: false,
    finished: false,
    score: null,
    result: null,
    has_fancy: false,
    has_bookmaker: false,
    odds: null,
  },
  runner_cards: [],
  markets: [
    market(10, {
      runners: [
        { selection_id: 1, name: 'A', back: [{ price: 2, size: 10 }], lay: [], position: 150, removed: false },
        { selection_id: 2, name: 'B', back: [], lay: [], position: -100, removed: false },
      ],
    }),
    market(11, { type: 'fancy', runners: [], book: [{ from: 0, to: null, pnl: 5 }] }),
  ],
};

describe('folding the public stream into the match detail', () => {
  it('takes the new prices and status but keeps the caller’s positions and fancy book', () => {
    const moved = market(10, { status: 'suspended', runners: [{ selection_id: 1, name: 'A', back: [{ price: 2.02, size: 50 }], lay: [], position: 0, removed: false }, { selection_id: 2, name: 'B', back: [], lay: [], position: 0, removed: false }] });
    const next = applyMarket(detail, moved);
    expect(next.markets[0].status).toBe('suspended');
    expect(next.markets[0].runners[0].back).toEqual([{ price: 2.02, size: 50 }]);
    expect(next.markets[0].runners.map((r) => r.position)).toEqual([150, -100]);
    const fancy = applySnapshot(next, [moved, market(11, { type: 'fancy', runners: [], line_yes: 50 })]).markets[1];
    expect(fancy.line_yes).toBe(50);
    expect(fancy.book).toEqual([{ from: 0, to: null, pnl: 5 }]);
    expect(applyMarket(detail, market(12)).markets.map((m) => m.market_id)).toEqual([10, 11, 12]);
  });

  it('asks for the caller’s figures again only when a change may touch them', () => {
    const none: OpenBets = { matched: [], unmatched: [] };
    const waiting = { ...none, unmatched: [{ market_id: 10 } as OpenBets['unmatched'][number]] };
    expect(changeTouchesCaller(detail.markets[0], market(10), none)).toBe(false);
    expect(changeTouchesCaller(detail.markets[0], market(10), waiting)).toBe(true);
    expect(changeTouchesCaller(detail.markets[1], market(11), waiting)).toBe(false);
    expect(changeTouchesCaller(detail.markets[0], market(10, { status: 'closed' }), none)).toBe(true);
    expect(changeTouchesCaller(undefined, market(13), none)).toBe(true);
  });

  it('takes the match going in play from any market the stream sends', () => {
    expect(applyMarket(detail, market(10, { in_play: true })).match.in_play).toBe(true);
    expect(applySnapshot(detail, [market(10, { in_play: true }), market(11, { in_play: true })]).match.in_play).toBe(true);
    expect(applyMarket(detail, market(10, { in_play: false })).match).toBe(detail.match);
  });
});
