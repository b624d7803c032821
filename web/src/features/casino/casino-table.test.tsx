// The casino table and round pages against docs/api.md's shapes with fetch stubbed: the
// countdown, markets and their SUSPENDED state, the slip (posted odds, refusals in words,
// balance after a bet), the caller's bets, the result, the last results, the rules, the live
// stream's round events (EventSource faked). The round page's check is round-check.test.tsx's.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSource } from '../../testing/fake-event-source';
import { EMPTY_CATALOGUE, stubServer, type Answers, type Call } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';
import type { RoundState } from './table-api';
import { CATCH_UP_CARD_MS } from './useBettingClock';
import { SETTLED_FOLLOW_UP_MS, TABLE_LIVE_POLL_MS, TABLE_POLL_MS } from './useCasinoTable';

const ROUND = 'dt1day-1795356000000';

function dragonTiger(overrides: Partial<RoundState> = {}): RoundState {
  const status = overrides.status ?? 'betting';
  const closed = status !== 'betting';
  return {
    match_id: 4,
    game_code: 'dt6',
    game: 'dt1day',
    name: 'DT 1 DAY',
    title: 'Dragon Tiger 1 Day',
    round_id: ROUND,
    status,
    seconds_left: closed ? 0 : 18,
    close_in_ms: closed ? 0 : 17_500,
    close_at: '2026-11-22T14:00:30.000Z',
    // Deliberately far from the local clock: the countdown must not use it.
    server_time: '2001-01-01T00:00:00.000Z',
    commitment: 'c0ffee'.padEnd(64, '0'),
    cards: [],
    dealing: null,
    next_round_in_ms: 0,
    deal: null,
    result: null,
    winner: null,
    seed: null,
    markets: [
      { code: 'dragon', name: 'Dragon', family: 'dragon-tiger', odds: '2.00', price: 2, suspended: closed },
      { code: 'tiger', name: 'Tiger', family: 'dragon-tiger', odds: '2.00', price: 2, suspended: closed },
      { code: 'tie', name: 'Tie', family: 'tie', odds: '16.50', price: 16.5, suspended: closed },
    ],
    my_bets: [],
    last_results: [
      { round_id: 'dt1day-1795355960000', winner: 'Tiger', date: '2026-11-22T13:59:55.000Z' },
      { round_id: 'dt1day-1795355920000', winner: 'Dragon', date: '2026-11-22T13:59:15.000Z' },
    ],
    ...overrides,
  };
}

const DT_RULES = ['One shuffled 52-card deck. The first card is Dragon\'s, the second Tiger\'s; the higher card wins.', 'Tie pays 16.50 when both cards have the same value. House edge 2.94%.'];

function setUp(table: () => RoundState | { httpStatus: number; message: string }, answers: Answers = {}): Call[] {
  const calls = stubServer({
    ...EMPTY_CATALOGUE,
    'POST /api/casino/roundState': () => {
      const now = table();
      return 'httpStatus' in now ? now : { data: now };
    },
    'POST /api/casino/getCasinoList': {
      data: [{ match_id: 4, game_code: 'dt6', name: 'DT 1 DAY', title: 'Dragon Tiger 1 Day', series_id: 'livecasino', image: '', rules: DT_RULES }],
    },
    'GET /api/user/getButtonValue': {
      data: JSON.stringify([
        { button_name: '1k', button_value: 1000, type: 'Game' },
        { button_name: 'C100', button_value: 100, type: 'Casino' },
        { button_name: 'C500', button_value: 500, type: 'Casino' },
      ]),
    },
    ...answers,
  });
  storeSession();
  return calls;
}

/**
 * A table 1 s into its deal when the page opens: `cards` turn up 1.2 s apart from 1.2 s, to the
 * seats in turn, and the server's count of the deal moves on between the table's polls.
 */
function dealingTable(seats: string[], cards: string[]): void {
  const dealtAt = Date.now() - 1000;
  const steps = cards.map((card, i) => ({ seat: i % seats.length, card, draw: null, at_ms: 1200 * (i + 1) }));
  setUp(() =>
    dragonTiger({
      status: 'dealing',
      dealing: { seats, steps, elapsed_ms: Date.now() - dealtAt, ends_in_ms: 1200 * (cards.length + 1) - (Date.now() - dealtAt) },
    }),
  );
}

const bets = (calls: Call[]) => calls.filter((c) => c.path === '/api/casino/placeBet');
const balanceCalls = (calls: Call[]) => calls.filter((c) => c.path === '/api/user/getUserBalance').length;

describe('the casino table', () => {
  it('shows the round, a countdown from close_in_ms, the markets and the last results', async () => {
    const calls = setUp(() => dragonTiger());
    renderApp('/casino/match/dt6');

    expect(await screen.findByTestId('casino-round-id')).toHaveTextContent(ROUND);
    expect(within(screen.getByTestId('casino-table')).getByRole('heading', { level: 1 })).toHaveTextContent('Dragon Tiger 1 Day');
    expect(screen.getByTestId('casino-commitment')).toHaveTextContent('c0ffee');
    expect(screen.getByTestId('casino-status')).toHaveTextContent('betting');
    // 17 500 ms left: 18 whole seconds, rounded up (not anything from server_time).
    expect(screen.getByTestId('casino-countdown')).toHaveTextContent(/^1[78]$/);
    expect(screen.getByTestId('casino-market-tiger')).toBeEnabled();
    expect(screen.getByTestId('casino-market-tiger')).toHaveTextContent('Tiger2.00');
    expect(screen.queryByTestId('casino-market-suspended')).toBeNull();
    // Two face-down cards wait for the deal.
    expect(screen.getAllByRole('img', { name: 'Card face down' })).toHaveLength(2);

    const strip = screen.getByTestId('casino-last-results');
    const links = within(strip).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['T', 'D']);
    // Each chip in its outcome's colour: Tiger yellow, Dragon red.
    expect(links[0]).toHaveClass('tone-yellow');
    expect(links[1]).toHaveClass('tone-red');
    expect(links[0]).toHaveAttribute('href', '#/casino/round/dt1day-1795355960000');
    // Asked by code; polled about once a second.
    expect(calls.find((c) => c.path === '/api/casino/roundState')!.body).toEqual({ game_code: 'dt6' });
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/casino/roundState').length).toBeGreaterThan(1), { timeout: 3000 });
  });

  it('bets at the posted odds with a Casino stake button, refetches the balance and lists the bet', async () => {
    let state = dragonTiger();
    const calls = setUp(() => state, {
      'POST /api/casino/placeBet': (call) => {
        state = dragonTiger({
          my_bets: [{ bet_id: 31, round_id: ROUND, match_id: 4, game_code: 'dt6', game_name: 'Dragon Tiger 1 Day', market: 'tiger', market_name: 'Tiger', odds: '2.00', stake: 100, payout: null, status: 'open', date: '2026-11-22T14:00:10.000Z' }],
        });
        return { message: 'Bet placed.', data: { bet: { ...state.my_bets[0], stake: Number((call.body as { stake: string }).stake) }, balance: 1400 } };
      },
    });
    renderApp('/casino/match/dt6');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('casino-market-tiger'));
    const slip = screen.getByTestId('casino-slip');
    // Only the Casino buttons, not the Game ones.
    expect(within(slip).queryByText('1k')).toBeNull();
    await user.click(within(slip).getByText('C100'));
    expect(within(slip).getByTestId('casino-stake')).toHaveValue('100');
    expect(within(slip).getByTestId('casino-slip-return')).toHaveTextContent('₹200.00');
    const balanceBefore = balanceCalls(calls);
    await user.click(within(slip).getByTestId('casino-place-bet'));

    await waitFor(() => expect(bets(calls)).toHaveLength(1));
    expect(bets(calls)[0].body).toEqual({ round_id: ROUND, market: 'tiger', odds: '2.00', stake: '100.00' });
    await waitFor(() => expect(balanceCalls(calls)).toBeGreaterThan(balanceBefore));
    const mine = await screen.findByTestId('casino-my-bet');
    expect(mine).toHaveTextContent('Tiger');
    expect(mine).toHaveTextContent('Open');
    expect(screen.queryByTestId('casino-slip')).toBeNull();
  });

  it('shows a refusal in words: odds changed (409)', async () => {
    const calls = setUp(() => dragonTiger(), {
      'POST /api/casino/placeBet': { httpStatus: 409, message: 'Odds changed: dragon is at 2.10, not 2.00.' },
    });
    renderApp('/casino/match/4');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('casino-market-dragon'));
    await user.type(screen.getByTestId('casino-stake'), '250.5');
    expect(screen.getByTestId('casino-slip-return')).toHaveTextContent('₹501.00');
    await user.click(screen.getByTestId('casino-place-bet'));

    expect(await screen.findByTestId('casino-slip-error')).toHaveTextContent('Bet not placed: Odds changed: dragon is at 2.10, not 2.00.');
    expect(bets(calls)[0].body).toMatchObject({ market: 'dragon', odds: '2.00', stake: '250.50' });
    // Asked by id on the numeric route.
    expect(calls.find((c) => c.path === '/api/casino/roundState')!.body).toEqual({ match_id: 4 });
  });

  it('checks the stake before sending and shows insufficient funds (422) as the server words it', async () => {
    const calls = setUp(() => dragonTiger(), {
      'POST /api/casino/placeBet': { httpStatus: 422, message: 'Insufficient balance: 12.00 is available.' },
    });
    renderApp('/casino/match/dt6');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('casino-market-tie'));
    await user.click(screen.getByTestId('casino-place-bet'));
    expect(screen.getByTestId('casino-slip-error')).toHaveTextContent('Enter a stake.');
    expect(bets(calls)).toHaveLength(0);
    await user.type(screen.getByTestId('casino-stake'), '50');
    await user.click(screen.getByTestId('casino-place-bet'));
    await waitFor(() => expect(screen.getByTestId('casino-slip-error')).toHaveTextContent('Bet not placed: Insufficient balance: 12.00 is available.'));
  });

  it('says near the stake how much more the bettor’s loss limit lets them lose, and words its refusal', async () => {
    setUp(() => dragonTiger(), {
      'GET /api/user/limits': { data: { limits: [{ kind: 'loss', period: 'month', value: 20000 }], pending: [], left: [{ kind: 'loss', period: 'month', value: 75 }], operator_max_stake: null } },
      'POST /api/casino/placeBet': {
        httpStatus: 422,
        message: 'Loss limit.',
        data: { refusal: { refusal: 'loss_limit', left_minor: 75_00, period: 'month', limit_minor: 20_000_00 } },
      },
    });
    renderApp('/casino/match/dt6');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('casino-market-dragon'));
    const slip = screen.getByTestId('casino-slip');
    expect(await within(slip).findByTestId('limit-left-loss')).toHaveTextContent('You can lose ₹75.00 more this month.');
    await user.type(within(slip).getByTestId('casino-stake'), '100');
    await user.click(within(slip).getByTestId('casino-place-bet'));
    expect(await within(slip).findByTestId('casino-slip-error')).toHaveTextContent(
      'Bet not placed: This would go past your monthly loss limit of ₹20,000.00: you can lose ₹75.00 more this month.',
    );
  });

  it('suspends every market once betting closes, with one band over the market area', async () => {
    setUp(() => dragonTiger({ status: 'closed' }));
    renderApp('/casino/match/dt6');

    expect(await screen.findByTestId('casino-status')).toHaveTextContent('closed');
    // No "Betting closed 0 s": the clock has nothing to count down to.
    expect(screen.queryByTestId('casino-countdown')).toBeNull();
    expect(screen.getByTestId('casino-clock-text')).toHaveTextContent('No more bets');
    const band = screen.getByTestId('casino-market-suspended');
    expect(band).toHaveTextContent('SUSPENDED');
    expect(band.parentElement).toBe(screen.getByTestId('casino-markets'));
    for (const code of ['dragon', 'tiger', 'tie']) {
      const market = screen.getByTestId(`casino-market-${code}`);
      expect(market).toBeDisabled();
      // The name and odds are not printed over.
      expect(market).not.toHaveTextContent('SUSPENDED');
    }
  });

  it('deals the cards one by one on the server timeline, then shows nothing of the result early', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      dealingTable(['Dragon', 'Tiger'], ['2D', 'KC']);
      renderApp('/casino/match/dt6');

      expect(await screen.findByTestId('casino-status')).toHaveTextContent('dealing');
      expect(screen.getByTestId('casino-clock-text')).toHaveTextContent('Dealing');
      expect(screen.queryByTestId('casino-countdown')).toBeNull();
      expect(screen.queryAllByTestId('casino-dealt-card')).toHaveLength(0);
      expect(screen.getByTestId('casino-market-suspended')).toBeInTheDocument();
      // 0.2 s later the Dragon's card turns up in the Dragon's seat; the Tiger's 1.2 s after.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(300);
      });
      const dragon = screen.getAllByTestId('casino-seat').find((s) => s.dataset.seat === 'Dragon')!;
      expect(within(dragon).getByRole('img', { name: '2 of diamonds' })).toBeInTheDocument();
      expect(screen.getAllByTestId('casino-dealt-card')).toHaveLength(1);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1200);
      });
      const tiger = screen.getAllByTestId('casino-seat').find((s) => s.dataset.seat === 'Tiger')!;
      expect(within(tiger).getByRole('img', { name: 'King of clubs' })).toBeInTheDocument();
      // The winner waits for the result.
      expect(screen.queryByTestId('casino-winner')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a page that falls behind the deal still turns the cards up one at a time', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      dealingTable(['Andar', 'Bahar'], ['2D', 'KC', '9H']);
      renderApp('/casino/match/dt6');
      expect(await screen.findByTestId('casino-status')).toHaveTextContent('dealing');
      expect(screen.queryAllByTestId('casino-dealt-card')).toHaveLength(0);
      // The device stalls for 3 s: when the page next runs, all three cards are due.
      vi.setSystemTime(Date.now() + 3000);
      for (const cards of [1, 2, 3]) {
        await act(async () => {
          await vi.advanceTimersByTimeAsync(CATCH_UP_CARD_MS);
        });
        expect(screen.getAllByTestId('casino-dealt-card')).toHaveLength(cards);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the cards, the winner and how my bet came out after the result', async () => {
    setUp(() =>
      dragonTiger({
        status: 'result',
        cards: ['2D', 'KC'],
        winner: 'Tiger',
        seed: 'ab'.repeat(32),
        result: {
          winner: 'Tiger',
          hands: [
            { name: 'Dragon', cards: ['2D'], description: '2' },
            { name: 'Tiger', cards: ['KC'], description: '13' },
          ],
          verdicts: { tiger: { verdict: 'won' }, 'tiger-odd': { verdict: 'won' } },
        },
        my_bets: [{ bet_id: 31, round_id: ROUND, match_id: 4, game_code: 'dt6', game_name: 'Dragon Tiger 1 Day', market: 'tiger', market_name: 'Tiger', odds: '2.00', stake: 100, payout: 200, status: 'won', date: '2026-11-22T14:00:10.000Z' }],
        next_round_in_ms: 7_500,
      }),
    );
    renderApp('/casino/match/dt6');

    expect(await screen.findByTestId('casino-winner')).toHaveTextContent('Winner: Tiger');
    expect(screen.getByTestId('casino-you-won')).toHaveTextContent('You won ₹200.00');
    const tiger = screen.getAllByTestId('casino-seat').find((s) => s.dataset.seat === 'Tiger')!;
    expect(tiger).toHaveClass('winner');
    // Held until the next round, with its own countdown.
    expect(screen.getByTestId('casino-clock-text')).toHaveTextContent(/^Next round in (7|8) s$/);
    expect(screen.getByRole('img', { name: '2 of diamonds' })).toHaveAttribute('data-colour', 'red');
    expect(screen.getByRole('img', { name: 'King of clubs' })).toHaveAttribute('data-colour', 'black');
    const mine = screen.getByTestId('casino-my-bet');
    expect(within(mine).getByTestId('casino-my-bet-status')).toHaveTextContent('Won');
    expect(within(mine).getByTestId('casino-my-bet-payout')).toHaveTextContent('₹200.00');
    expect(screen.getByTestId('casino-market-tiger')).toHaveClass('won');
  });

  it("shows the game's rules from the game list", async () => {
    setUp(() => dragonTiger());
    renderApp('/casino/match/dt6');
    const rules = await screen.findByTestId('casino-rules');
    expect(await within(rules).findByText(DT_RULES[1])).toBeInTheDocument();
  });

  it('offers the way back to the casino list for a game that does not exist', async () => {
    const calls = setUp(() => ({ httpStatus: 404, message: 'There is no casino game nosuch.' }));
    renderApp('/casino/match/nosuch');

    const missing = await screen.findByTestId('casino-not-found');
    expect(missing).toHaveTextContent('There is no casino game nosuch.');
    expect(within(missing).getByRole('link')).toHaveAttribute('href', '#/casino/list');
    // No polling of a game that is not there.
    await new Promise((r) => setTimeout(r, 1500));
    expect(calls.filter((c) => c.path === '/api/casino/roundState')).toHaveLength(1);
  });
});

describe("the table's live stream", () => {
  const roundStates = (calls: Call[]) => calls.filter((c) => c.path === '/api/casino/roundState').length;
  const withStream: Answers = { 'POST /api/stream/ticket': { data: { ticket: 'tk1', expires_in_s: 60 } } };
  const roundEvent = (phase: string, round_id = ROUND) => ({ game_code: 'dt6', round_id, phase });

  beforeEach(() => {
    FakeSource.opened = [];
    vi.stubGlobal('EventSource', FakeSource);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refetches the table on each round event, and once more shortly after it settled', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let state = dragonTiger();
    const calls = setUp(() => state, withStream);
    // Opened by id: the stream still follows the game by its code.
    renderApp('/casino/match/4');
    expect(await screen.findByTestId('casino-status')).toHaveTextContent('betting');
    await waitFor(() => expect(FakeSource.opened).toHaveLength(1));
    expect(FakeSource.last().url).toBe('/api/stream?casino=dt6&ticket=tk1');
    act(() => FakeSource.last().emit('open'));
    await act(() => vi.advanceTimersByTimeAsync(10));
    const before = roundStates(calls);

    state = dragonTiger({ status: 'closed' });
    act(() => FakeSource.last().emit('round', roundEvent('closed')));
    await waitFor(() => expect(screen.getByTestId('casino-status')).toHaveTextContent('closed'));
    expect(roundStates(calls)).toBe(before + 1);
    act(() => FakeSource.last().emit('round', 'not an event')); // garbage is ignored
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(roundStates(calls)).toBe(before + 1);

    // Settled: at once, and again a moment later for the caller's bets and balance.
    state = dragonTiger({
      status: 'result',
      winner: 'Tiger',
      my_bets: [{ bet_id: 31, round_id: ROUND, match_id: 4, game_code: 'dt6', game_name: 'Dragon Tiger 1 Day', market: 'tiger', market_name: 'Tiger', odds: '2.00', stake: 100, payout: 200, status: 'won', date: '2026-11-22T14:00:10.000Z' }],
    });
    act(() => FakeSource.last().emit('round', roundEvent('settled')));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(roundStates(calls)).toBe(before + 2);
    expect(await screen.findByTestId('casino-my-bet-status')).toHaveTextContent('Won');
    const balances = calls.filter((c) => c.path === '/api/user/getUserBalance').length;
    await act(() => vi.advanceTimersByTimeAsync(SETTLED_FOLLOW_UP_MS));
    expect(roundStates(calls)).toBe(before + 3);
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/user/getUserBalance').length).toBeGreaterThan(balances));

    // The next round opens: its countdown starts from the fresh answer.
    state = dragonTiger({ round_id: 'dt1day-1795356040000' });
    act(() => FakeSource.last().emit('round', { ...roundEvent('betting', 'dt1day-1795356040000'), close_at: '2026-11-22T14:01:10.000Z' }));
    await waitFor(() => expect(screen.getByTestId('casino-round-id')).toHaveTextContent('dt1day-1795356040000'));
    expect(screen.getByTestId('casino-status')).toHaveTextContent('betting');
    expect(roundStates(calls)).toBe(before + 4);
  });

  it('polls slowly while the stream is live and every second while it is down', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = setUp(() => dragonTiger(), withStream);
    renderApp('/casino/match/dt6');
    await screen.findByTestId('casino-round-id');
    await waitFor(() => expect(FakeSource.opened).toHaveLength(1));

    // Live: no poll for most of the slow interval, then one.
    act(() => FakeSource.last().emit('open'));
    await act(() => vi.advanceTimersByTimeAsync(10));
    const live = roundStates(calls);
    await act(() => vi.advanceTimersByTimeAsync(TABLE_LIVE_POLL_MS - 1_500));
    expect(roundStates(calls)).toBe(live);
    await act(() => vi.advanceTimersByTimeAsync(1_600));
    expect(roundStates(calls)).toBe(live + 1);

    // Down (the reconnect after the back-off does not open yet): once a second again.
    act(() => FakeSource.last().emit('error'));
    expect(FakeSource.last().closed).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(10));
    const down = roundStates(calls);
    await act(() => vi.advanceTimersByTimeAsync(3 * TABLE_POLL_MS + 100));
    expect(roundStates(calls)).toBeGreaterThanOrEqual(down + 3);
    expect(FakeSource.opened.length).toBeGreaterThan(1);

    // Live again: slow again.
    act(() => FakeSource.last().emit('open'));
    await act(() => vi.advanceTimersByTimeAsync(10));
    const again = roundStates(calls);
    await act(() => vi.advanceTimersByTimeAsync(TABLE_LIVE_POLL_MS - 1_500));
    expect(roundStates(calls)).toBe(again);
  });
});
