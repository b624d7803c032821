// Quick betting: the slip's rules for rate moves the bettor accepts and for keeping a bet in
// play, and one-click betting on the match board (a tap holds the bet with Undo, then sends it
// at the one-click stake) against a stubbed server.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MarketBook } from '../../api/match-stream';
import { stubServer } from '../../testing/fake-server';
import { MatchBoard } from './MatchBoard';
import { acceptsMove, DEFAULT_PREFERENCES, ONE_CLICK_UNDO_MS, PREFERENCES_KEY, type Preferences } from './preferences';
import { QuickBetSettings } from './QuickBetSettings';
import { placeBody, slipFor, slipProblems } from './selection';

const base = { match_id: 100, in_play: false, bet_delay_s: 0, min_stake: 100, max_stake: 500000, line_no: null, rate_no: null, line_yes: null, rate_yes: null, book: [], commission_bp: 0, total_matched: 0 };

const matchOdds = {
  ...base,
  market_id: 1,
  name: 'Match Odds',
  type: 'match_odds',
  status: 'open',
  runners: [
    { selection_id: 11, name: 'India', back: [{ price: 2.5, size: 1000 }], lay: [{ price: 2.52, size: 900 }], position: 0, removed: false },
    { selection_id: 12, name: 'Australia', back: [{ price: 1.66, size: 500 }], lay: [{ price: 1.67, size: 700 }], position: 0, removed: false },
  ],
} as unknown as MarketBook;

const bookmaker = (backRate: number) =>
  ({
    ...base,
    market_id: 2,
    name: 'Bookmaker',
    type: 'bookmaker',
    status: 'open',
    runners: [{ selection_id: 21, name: 'India', back: [{ price: backRate, size: 500000 }], lay: [{ price: backRate + 2, size: 500000 }], position: 0, removed: false }],
  }) as unknown as MarketBook;

describe('rate moves the bettor accepts', () => {
  it('asks about a move only when the bettor does not take it unasked', () => {
    const slip = { ...slipFor({ marketId: 2, selectionId: 21, side: 'back' }, bookmaker(45)), stakeText: '100' };
    const rateAsked = (backRate: number, accept: 'exact' | 'better' | 'any') =>
      slipProblems(bookmaker(backRate), slip, accept).some((p) => p.field === 'rate');
    expect(rateAsked(45, 'exact')).toBe(false);
    expect(rateAsked(50, 'exact')).toBe(true);
    expect(rateAsked(50, 'better')).toBe(false); // a back's higher rate wins more
    expect(rateAsked(40, 'better')).toBe(true);
    expect(rateAsked(40, 'any')).toBe(false);
    expect(acceptsMove('better', 'no', { rate: 100, line: 48 }, { rate: 100, line: 49 })).toBe(true);
    expect(acceptsMove('better', 'yes', { rate: 100, line: 48 }, { rate: 100, line: 49 })).toBe(false);
    expect(placeBody(bookmaker(50), slip, 'better')).toMatchObject({ price: '45', accept_rate_changes: 'better', persistence: 'lapse' });
  });

  it('keeps an exchange bet in play only when the slip says so', () => {
    const slip = { ...slipFor({ marketId: 1, selectionId: 11, side: 'back', price: 2.5 }, matchOdds), stakeText: '100' };
    expect(placeBody(matchOdds, slip).persistence).toBe('lapse');
    expect(placeBody(matchOdds, { ...slip, keepInPlay: true })).toMatchObject({ persistence: 'persist' });
    expect(placeBody(matchOdds, slip)).not.toHaveProperty('accept_rate_changes');
  });
});

describe('one-click betting', () => {
  afterEach(() => vi.useRealTimers());

  it('holds a tapped price with Undo for 2 s, then places it at the one-click stake', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = stubServer({
      'GET /api/user/preferences': { data: { one_click: true, one_click_stake: 250, accept_rate_changes: 'exact' } },
      'POST /api/bet/openBets': { data: { matched: [], unmatched: [] } },
      'GET /api/user/getUserBalance': { data: { total_balance: 1500, liability: 0, available: 1500 } },
      'POST /api/match/matchDetail': { data: null },
      'POST /api/bet/placeBet': { message: 'Bet matched.', data: { bet_id: 5, status: 'matched', size_matched: 250, avg_price_matched: 2.5, message: 'Bet matched.' } },
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MatchBoard matchId={100} markets={[matchOdds]} />
      </QueryClientProvider>,
    );
    const backIndia = () => within(screen.getAllByTestId('runner')[0]).getByTestId('best-back');
    await screen.findByText('One-click betting is on: a tap on a price places a bet.');

    fireEvent.click(backIndia());
    expect(screen.getByTestId('one-click-bar')).toHaveTextContent('Placing Back India 2.50 for ₹250.00 in 2 s');
    expect(screen.queryByTestId('bet-slip')).toBeNull();
    fireEvent.click(screen.getByTestId('one-click-undo'));
    await act(() => vi.advanceTimersByTimeAsync(ONE_CLICK_UNDO_MS + 500));
    expect(calls.some((c) => c.path === '/api/bet/placeBet')).toBe(false);

    fireEvent.click(backIndia());
    await act(() => vi.advanceTimersByTimeAsync(ONE_CLICK_UNDO_MS + 100));
    const placed = calls.filter((c) => c.path === '/api/bet/placeBet');
    expect(placed).toHaveLength(1);
    expect(placed[0].body).toMatchObject({ market_id: 1, selection_id: 11, side: 'back', price: '2.50', stake: '250.00', persistence: 'lapse' });
    expect(screen.queryByTestId('one-click-bar')).toBeNull();
  });
});

describe('the one-click settings', () => {
  it('keep the toggle on when the stake’s save answers after the toggle’s', async () => {
    // The stake's save (sent on blur) is answered last, with the one_click of before.
    const answers: ((body: unknown) => void)[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((_input: string, init: RequestInit = {}) => {
        const sent = JSON.parse(init.body as string) as Record<string, unknown>;
        return new Promise<Response>((resolve) => {
          answers.push(() => {
            const data = { one_click: sent.one_click === true, one_click_stake: 120, accept_rate_changes: 'exact' };
            resolve(new Response(JSON.stringify({ status: true, message: 'Saved.', data }), { headers: { 'Content-Type': 'application/json' } }));
          });
        });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(PREFERENCES_KEY, DEFAULT_PREFERENCES);
    render(
      <QueryClientProvider client={client}>
        <QuickBetSettings preferences={DEFAULT_PREFERENCES} />
      </QueryClientProvider>,
    );
    const stake = screen.getByTestId('one-click-stake');
    fireEvent.change(stake, { target: { value: '120' } });
    fireEvent.blur(stake);
    fireEvent.click(screen.getByTestId('one-click-toggle'));
    expect(answers).toHaveLength(2);
    await act(async () => {
      answers[1](null); // the toggle's: on
      answers[0](null); // then the stake's: off, as it was when it was sent
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(client.getQueryData<Preferences>(PREFERENCES_KEY)?.one_click).toBe(true));
    expect(screen.getByTestId('one-click-toggle')).toBeChecked();
  });
});
