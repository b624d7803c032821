// The match page against API.md's shapes with fetch stubbed (no EventSource in jsdom, so the
// page polls): prices, overlays, the slip's preview and projection, placement, open bets.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MarketBook } from '../../api/match-stream';
import { FakeSource } from '../../testing/fake-event-source';
import { EMPTY_CATALOGUE, stubServer, type Answer, type Answers, type Call } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';
import type { BetItem, MatchDetail, PlaceBetResult } from './api';
import { FancyBook } from './FancyBook';
import { countdownText } from './RaceCardPage';

const base = { match_id: 100, in_play: false, bet_delay_s: 0, min_stake: 100, max_stake: 500000, total_matched: null, commission_bp: 0, line_no: null, rate_no: null, line_yes: null, rate_yes: null, book: [] };

function matchOdds(overrides: Partial<MarketBook> = {}): MarketBook {
  return {
    ...base,
    market_id: 1,
    name: 'Match Odds',
    type: 'match_odds',
    status: 'open',
    runners: [
      {
        selection_id: 11,
        name: 'India',
        back: [{ price: 2.5, size: 1000 }, { price: 2.48, size: 2500 }, { price: 2.46, size: 4000 }],
        lay: [{ price: 2.52, size: 900 }, { price: 2.54, size: 2000 }, { price: 2.56, size: 3000 }],
        position: 20,
        removed: false,
      },
      { selection_id: 12, name: 'Australia', back: [{ price: 1.66, size: 500 }], lay: [{ price: 1.67, size: 700 }], position: -10.5, removed: false },
    ],
    ...overrides,
  };
}

const bookmaker: MarketBook = {
  ...base,
  market_id: 2,
  name: 'Bookmaker',
  type: 'bookmaker',
  status: 'ball_running',
  runners: [
    { selection_id: 21, name: 'India', back: [{ price: 45, size: 500000 }], lay: [{ price: 47, size: 500000 }], position: 0, removed: false },
    { selection_id: 22, name: 'Australia', back: [{ price: 150, size: 500000 }], lay: [{ price: 152, size: 500000 }], position: 0, removed: false },
  ],
};

const fancy: MarketBook = {
  ...base,
  market_id: 3,
  name: '6 over runs India',
  type: 'fancy',
  status: 'open',
  runners: [],
  line_no: 48,
  rate_no: 100,
  line_yes: 49,
  rate_yes: 90,
  book: [
    { from: 0, to: 48, pnl: -100 },
    { from: 49, to: null, pnl: 90 },
  ],
};

function detail(markets: MarketBook[] = [matchOdds(), bookmaker, fancy]): MatchDetail {
  return {
    match: {
      match_id: 100,
      name: 'India v Australia',
      match_name: 'India v Australia',
      open_date: '2026-11-22T14:00:00.000Z',
      match_Date: '2026-11-22T14:00:00.000Z',
      sport_id: 4,
      sport_name: 'Cricket',
      series_id: 1,
      series_name: 'World Cup',
      is_active: 1,
      in_play: false,
      finished: false,
      score: null,
      result: null,
      has_fancy: true,
      has_bookmaker: true,
      odds: null,
    },
    markets,
    runner_cards: [],
  };
}

function setUp(answers: Answers = {}) {
  const calls = stubServer({
    ...EMPTY_CATALOGUE,
    'POST /api/match/matchDetail': { data: detail() },
    'POST /api/bet/openBets': { data: { matched: [], unmatched: [] } },
    'GET /api/user/getButtonValue': {
      data: JSON.stringify([
        { button_name: '1k', button_value: 1000, type: 'Game' },
        { button_name: '5k', button_value: 5000, type: 'Game' },
        { button_name: 'C100', button_value: 100, type: 'Casino' },
      ]),
    },
    ...answers,
  });
  storeSession();
  return calls;
}

const placed = (calls: Call[]) => calls.filter((c) => c.path === '/api/bet/placeBet');

/**
 * A server that remembers what it placed: `bet/placeBet` answers as given, and `bet/openBets`
 * lists each bet placed as its placement left it (matched, waiting, or part of each).
 */
function placing(answer: Answer | ((call: Call) => Answer)): Answers {
  const bets: BetItem[] = [];
  return {
    'POST /api/bet/placeBet': (call) => {
      const given = typeof answer === 'function' ? answer(call) : answer;
      const data = given.data as PlaceBetResult | undefined;
      if (data && (given.httpStatus ?? 200) < 400 && !bets.some((b) => b.bet_id === data.bet_id)) {
        const body = call.body as { market_id: number; selection_id?: number; side: BetItem['side']; price: string; line?: number; stake: string };
        const stake = Number(body.stake);
        bets.push({
          bet_id: data.bet_id,
          market_id: body.market_id,
          selection_id: body.selection_id ?? null,
          side: body.side,
          price: Number(body.price),
          line: body.line ?? null,
          avg_price_matched: data.avg_price_matched,
          stake,
          matched: data.size_matched,
          remaining: stake - data.size_matched,
          status: 'open',
          persistence: 'lapse',
          date: '2026-11-22T10:00:00.000Z',
        });
      }
      return given;
    },
    'POST /api/bet/openBets': () => ({ data: { matched: bets.filter((b) => b.matched > 0), unmatched: bets.filter((b) => b.remaining > 0) } }),
  };
}

describe('the match page', () => {
  it('shows three back and lay prices per runner, the bookmaker overlay and the fancy lines', async () => {
    setUp();
    renderApp('/game-details/4/100');
    const odds = await screen.findByText('Match Odds');
    const market = odds.closest('section')!;
    const india = within(market).getAllByTestId('runner')[0];
    expect(within(india).getAllByRole('button', { name: /^(Back|Lay) / }).map((b) => b.textContent)).toEqual([
      '2.464000', '2.482500', '2.51000', '2.52900', '2.542000', '2.563000',
    ]);
    expect(within(india).getByTestId('runner-position')).toHaveTextContent('₹20.00');
    const bm = screen.getByText('Bookmaker').closest('section')!;
    // One band across each runner's prices.
    const bands = within(bm).getAllByTestId('status-overlay');
    expect(bands).toHaveLength(within(bm).getAllByTestId('runner').length);
    for (const band of bands) expect(band).toHaveTextContent('Ball Running');
    // A price picked under the band (the browser hides it; a link can still name it) opens the
    // slip, which says why no bet is taken.
    await userEvent.setup().click(within(bm).getAllByTestId('bm-back')[0]);
    expect(within(screen.getByTestId('bet-slip')).getByTestId('slip-error')).toHaveTextContent('Ball running: this market takes no bets until it reopens.');
    const row = screen.getByTestId('fancy-row');
    expect(within(row).getByTestId('fancy-no')).toHaveTextContent('48100');
    expect(within(row).getByTestId('fancy-yes')).toHaveTextContent('4990');
    expect(within(row).getByText(/Min ₹100.00/)).toBeInTheDocument();
    // The bettor's position shows on the row, without opening Book: the worst run range.
    expect(within(row).getByTestId('fancy-position')).toHaveTextContent('-₹100.00');
    expect(within(row).getByTestId('fancy-position')).toHaveClass('lose');
  });

  it('opens the slip from a list price, previews, projects each runner and steps the odds by ladder tick', async () => {
    setUp();
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const user = userEvent.setup();
    const slip = await screen.findByTestId('bet-slip');
    expect(within(slip).getByTestId('slip-side')).toHaveTextContent('Back');
    expect(within(slip).getByTestId('slip-runner')).toHaveTextContent('India');
    expect(within(slip).getByTestId('slip-odds')).toHaveValue('2.50');

    await user.type(within(slip).getByTestId('slip-stake'), '100');
    expect(within(slip).getByTestId('slip-profit')).toHaveTextContent('₹150.00');
    expect(within(slip).getByTestId('slip-liability')).toHaveTextContent('₹100.00');
    // India 20 + 150; Australia −10.50 − 100.
    const projections = screen.getAllByTestId('runner-projection').map((p) => p.textContent);
    expect(projections).toEqual(['» ₹170.00', '» -₹110.50']);

    await user.click(within(slip).getByTestId('odds-up'));
    expect(within(slip).getByTestId('slip-odds')).toHaveValue('2.52');
    await user.clear(within(slip).getByTestId('slip-odds'));
    await user.type(within(slip).getByTestId('slip-odds'), '1.99');
    await user.click(within(slip).getByTestId('odds-up'));
    expect(within(slip).getByTestId('slip-odds')).toHaveValue('2.00');
    await user.click(within(slip).getByTestId('odds-up'));
    expect(within(slip).getByTestId('slip-odds')).toHaveValue('2.02');

    // Stake buttons are the Game ones.
    const buttons = within(slip).getAllByTestId('stake-button').map((b) => b.textContent);
    expect(buttons).toEqual(['1k', '5k']);
    await user.click(within(slip).getByText('5k'));
    expect(within(slip).getByTestId('slip-stake')).toHaveValue('5000');
    expect(within(slip).getByTestId('slip-profit')).toHaveTextContent('₹5,100.00');

    // Laying: the liability is stake × (odds − 1).
    await user.click(within(screen.getAllByTestId('runner')[1]).getByTestId('best-lay'));
    const laySlip = screen.getByTestId('bet-slip');
    expect(within(laySlip).getByTestId('slip-side')).toHaveTextContent('Lay');
    expect(within(laySlip).getByTestId('slip-odds')).toHaveValue('1.67');
    expect(within(laySlip).getByTestId('slip-stake')).toHaveValue('5000');
    expect(within(laySlip).getByTestId('slip-liability')).toHaveTextContent('₹3,350.00');
  });

  it('says in words what is wrong: letters, limits, an off-ladder price, a market not open', async () => {
    const calls = setUp();
    renderApp('/game-details/4/100');
    const user = userEvent.setup();
    await user.click((await screen.findAllByTestId('best-back'))[0]);
    const slip = screen.getByTestId('bet-slip');
    await user.click(within(slip).getByTestId('place-bet'));
    expect(within(slip).getByTestId('slip-error')).toHaveTextContent('Enter a stake.');
    await user.type(within(slip).getByTestId('slip-stake'), '12abc');
    expect(within(slip).getByTestId('slip-error')).toHaveTextContent('The stake must be a number such as 100 or 250.50.');
    await user.clear(within(slip).getByTestId('slip-stake'));
    await user.type(within(slip).getByTestId('slip-stake'), '50');
    expect(within(slip).getByTestId('slip-error')).toHaveTextContent('The minimum stake here is ₹100.00.');
    await user.clear(within(slip).getByTestId('slip-stake'));
    await user.type(within(slip).getByTestId('slip-stake'), '600000');
    expect(within(slip).getByTestId('slip-error')).toHaveTextContent('The maximum stake here is ₹5,00,000.00.');
    await user.clear(within(slip).getByTestId('slip-stake'));
    await user.type(within(slip).getByTestId('slip-stake'), '100');
    await user.clear(within(slip).getByTestId('slip-odds'));
    await user.type(within(slip).getByTestId('slip-odds'), '2.01');
    expect(within(slip).getByTestId('slip-error')).toHaveTextContent('2.01 is not a valid price: the nearest valid prices are 2.00 and 2.02.');
    await user.click(within(slip).getByTestId('place-bet'));
    expect(placed(calls)).toHaveLength(0);
  });

  it('refuses a press on a ball-running market without asking the server, and keeps saying so after it reopens until the bettor acts', async () => {
    vi.stubGlobal('EventSource', FakeSource);
    FakeSource.opened = [];
    const calls = setUp({
      'POST /api/match/matchDetail': { data: detail([matchOdds({ status: 'ball_running' })]) },
      'POST /api/stream/ticket': { data: { ticket: 't', expires_in_s: 60 } },
      ...placing({ data: { bet_id: 8, status: 'matched', size_matched: 100, avg_price_matched: 2.5, message: 'Bet matched.' } }),
    });
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const user = userEvent.setup();
    const slip = await screen.findByTestId('bet-slip');
    expect(screen.getAllByTestId('status-overlay')[0]).toHaveTextContent('Ball Running');
    // Before a press the slip says why it cannot place, as the market is now.
    expect(within(slip).getByTestId('slip-error')).toHaveTextContent('Ball running: this market takes no bets until it reopens.');
    await user.type(within(slip).getByTestId('slip-stake'), '100');
    await user.click(within(slip).getByTestId('place-bet'));
    const refused = 'Bet not placed: the ball was running. Press Place Bet again when the market reopens.';
    expect(within(slip).getByTestId('slip-error')).toHaveTextContent(refused);
    expect(placed(calls)).toHaveLength(0);

    // The ball is bowled and the market reopens: the press was still refused, and the slip
    // still says so.
    await waitFor(() => expect(FakeSource.opened.length).toBeGreaterThan(0));
    act(() => {
      FakeSource.last().emit('open');
      FakeSource.last().emit('market', matchOdds({ status: 'open' }));
    });
    await waitFor(() => expect(screen.queryByTestId('status-overlay')).toBeNull());
    expect(within(slip).getByTestId('slip-error')).toHaveTextContent(refused);

    // The bettor acts (here a new stake): the old refusal goes, and the next press places.
    await user.clear(within(slip).getByTestId('slip-stake'));
    await user.type(within(slip).getByTestId('slip-stake'), '200');
    expect(within(slip).queryByTestId('slip-error')).toBeNull();
    await user.click(within(slip).getByTestId('place-bet'));
    await waitFor(() => expect(placed(calls)).toHaveLength(1));
    vi.unstubAllGlobals();
  });

  it('shows a withdrawn runner as a non-runner with empty boxes that open no slip; the others keep their prices', async () => {
    const [india, australia] = matchOdds().runners;
    const odds = matchOdds({ runners: [india, { ...australia, back: [], lay: [], position: 0, removed: true }] });
    const house: MarketBook = { ...bookmaker, status: 'open', runners: [bookmaker.runners[0], { ...bookmaker.runners[1], back: [], lay: [], removed: true }] };
    setUp({ 'POST /api/match/matchDetail': { data: detail([odds, house]) } });
    renderApp('/game-details/4/100');
    const user = userEvent.setup();
    const exchange = (await screen.findByText('Match Odds')).closest('section')!;
    const [running, withdrawn] = within(exchange).getAllByTestId('runner');
    expect(within(withdrawn).getByText('Australia')).toBeInTheDocument();
    expect(within(withdrawn).getByTestId('non-runner')).toHaveTextContent('Non-runner');
    expect(within(withdrawn).queryAllByRole('button')).toEqual([]);
    expect(within(withdrawn).queryByTestId('best-back')).toBeNull();
    expect(within(withdrawn).queryByTestId('ladder-open')).toBeNull();
    // Its six boxes stay, empty, so the row keeps its shape.
    expect(within(withdrawn).getAllByTestId('non-runner-cell')).toHaveLength(6);
    expect(within(running).queryByTestId('non-runner')).toBeNull();
    // Its six prices, and its ladder.
    expect(within(running).getAllByRole('button', { name: /^(Back|Lay) India/ })).toHaveLength(6);
    expect(within(running).getByRole('button', { name: 'Ladder and chart of India' })).toBeInTheDocument();

    const bm = screen.getByText('Bookmaker').closest('section')!;
    const [bmRunning, bmWithdrawn] = within(bm).getAllByTestId('runner');
    expect(within(bmWithdrawn).getByTestId('non-runner')).toHaveTextContent('Non-runner');
    expect(within(bmWithdrawn).queryAllByRole('button')).toEqual([]);
    expect(within(bmWithdrawn).getAllByTestId('non-runner-cell')).toHaveLength(2);
    expect(within(bmRunning).getAllByRole('button')).toHaveLength(2);

    // A tap on a non-runner's box opens nothing; a running runner's price still does.
    for (const cell of within(withdrawn).getAllByTestId('non-runner-cell')) await user.click(cell);
    await user.click(within(bmWithdrawn).getAllByTestId('non-runner-cell')[0]);
    expect(screen.queryByTestId('bet-slip')).toBeNull();
    await user.click(within(running).getByTestId('best-back'));
    expect(within(screen.getByTestId('bet-slip')).getByTestId('slip-runner')).toHaveTextContent('India');
  });

  it('opens no slip from a link to a non-runner', async () => {
    const [india, australia] = matchOdds().runners;
    setUp({ 'POST /api/match/matchDetail': { data: detail([matchOdds({ runners: [india, { ...australia, back: [], lay: [], removed: true }] })]) } });
    renderApp('/game-details/4/100?market=1&selection=12&side=back&price=1.66');
    expect(await screen.findByTestId('non-runner')).toBeInTheDocument();
    expect(screen.queryByTestId('bet-slip')).toBeNull();
    expect(screen.getByText('Tap a price to bet.')).toBeInTheDocument();
  });

  it('places a bet with a fresh client_ref, shows the outcome, refreshes balance, book and open bets', async () => {
    const calls = setUp({
      ...placing({ message: 'Bet matched.', data: { bet_id: 9, status: 'matched', size_matched: 100, avg_price_matched: 2.5, message: 'Bet matched.' } }),
    });
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const user = userEvent.setup();
    const slip = await screen.findByTestId('bet-slip');
    await screen.findByTestId('open-bets-empty');
    const before = { balance: count(calls, 'user/getUserBalance'), detail: count(calls, 'match/matchDetail'), open: count(calls, 'bet/openBets') };
    await user.type(within(slip).getByTestId('slip-stake'), '100');
    await user.click(within(slip).getByTestId('place-bet'));
    expect(await screen.findByTestId('bet-outcome')).toHaveTextContent('Bet matched.');
    expect(screen.queryByTestId('bet-slip')).toBeNull();
    const [first] = placed(calls);
    expect(first.body).toMatchObject({ market_id: 1, selection_id: 11, side: 'back', price: '2.50', stake: '100.00', persistence: 'lapse' });
    expect((first.body as { client_ref: string }).client_ref).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await waitFor(() => {
      expect(count(calls, 'user/getUserBalance')).toBeGreaterThan(before.balance);
      expect(count(calls, 'match/matchDetail')).toBeGreaterThan(before.detail);
      expect(count(calls, 'bet/openBets')).toBeGreaterThan(before.open);
    });

    // A second bet is a new submission: a new client_ref.
    await user.click(screen.getAllByTestId('best-back')[0]);
    await user.type(within(screen.getByTestId('bet-slip')).getByTestId('slip-stake'), '100');
    await user.click(screen.getByTestId('place-bet'));
    await waitFor(() => expect(placed(calls)).toHaveLength(2));
    expect((placed(calls)[1].body as { client_ref: string }).client_ref).not.toBe((first.body as { client_ref: string }).client_ref);
  });

  it('after a network error resends the same bet with the same client_ref; a refusal shows the reason', async () => {
    let attempt = 0;
    const calls = setUp({
      ...placing(() => {
        attempt += 1;
        if (attempt === 1) throw new TypeError('Failed to fetch');
        if (attempt === 2) return { message: 'Bet placed, waiting to be matched.', data: { bet_id: 5, status: 'unmatched', size_matched: 0, avg_price_matched: null, message: 'Bet placed, waiting to be matched.' } };
        return { httpStatus: 422, message: 'Insufficient funds: 50.00 is available.' };
      }),
    });
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const user = userEvent.setup();
    const slip = await screen.findByTestId('bet-slip');
    await user.type(within(slip).getByTestId('slip-stake'), '100');
    await user.click(within(slip).getByTestId('place-bet'));
    expect(await within(slip).findByTestId('slip-error')).toHaveTextContent('Could not reach the server');
    await user.click(within(slip).getByTestId('place-bet'));
    expect(await screen.findByTestId('bet-outcome')).toHaveTextContent('waiting to be matched');
    const [a, b] = placed(calls).map((c) => (c.body as { client_ref: string }).client_ref);
    expect(b).toBe(a);

    await user.click(screen.getAllByTestId('best-back')[0]);
    await user.type(within(screen.getByTestId('bet-slip')).getByTestId('slip-stake'), '100');
    await user.click(screen.getByTestId('place-bet'));
    expect(await screen.findByTestId('slip-error')).toHaveTextContent('Bet not placed: Insufficient funds: 50.00 is available.');
    expect((placed(calls)[2].body as { client_ref: string }).client_ref).not.toBe(a);
  });

  it("keeps the outcome line true to the bet: 'waiting' becomes 'matched' when it matches, and goes once the bet is no longer open", async () => {
    vi.stubGlobal('EventSource', FakeSource);
    FakeSource.opened = [];
    const bet = { bet_id: 5, market_id: 1, selection_id: 11, side: 'back', price: 2.5, line: null, stake: 100, persistence: 'lapse', status: 'open', date: '2026-11-22T10:00:00.000Z' };
    let state: 'waiting' | 'part' | 'matched' | 'settled' = 'waiting';
    setUp({
      'POST /api/stream/ticket': { data: { ticket: 't', expires_in_s: 60 } },
      'POST /api/bet/placeBet': { data: { bet_id: 5, status: 'unmatched', size_matched: 0, avg_price_matched: null, message: 'Bet placed, waiting to be matched.' } },
      'POST /api/bet/openBets': () => {
        const matched = { waiting: 0, part: 40, matched: 100, settled: 0 }[state];
        const item = { ...bet, matched, remaining: 100 - matched, avg_price_matched: matched > 0 ? 2.5 : null };
        if (state === 'settled') return { data: { matched: [], unmatched: [] } };
        return { data: { matched: matched > 0 ? [item] : [], unmatched: item.remaining > 0 ? [item] : [] } };
      },
    });
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const user = userEvent.setup();
    const slip = await screen.findByTestId('bet-slip');
    await user.type(within(slip).getByTestId('slip-stake'), '100');
    await user.click(within(slip).getByTestId('place-bet'));
    const outcome = () => screen.getByTestId('bet-outcome');
    await waitFor(() => expect(outcome()).toHaveTextContent('Bet placed, waiting to be matched.'));
    await waitFor(() => expect(FakeSource.opened.length).toBeGreaterThan(0));
    const mine = () =>
      act(() => {
        FakeSource.last().emit('open');
        // The stream tells the bettor their own bets in the market changed.
        FakeSource.last().emit('mine', { market_id: 1 });
      });

    state = 'part';
    mine();
    await waitFor(() => expect(outcome()).toHaveTextContent('Bet partly matched: ₹40.00 matched, the rest waits in the book.'));
    expect(outcome()).toHaveAttribute('data-status', 'partially_matched');
    state = 'matched';
    mine();
    await waitFor(() => expect(outcome()).toHaveTextContent('Bet matched.'));
    expect(outcome()).not.toHaveTextContent('waiting');
    state = 'settled';
    mine();
    await waitFor(() => expect(screen.queryByTestId('bet-outcome')).toBeNull());
    vi.unstubAllGlobals();
  });

  it('after a 503 (the exchange briefly unavailable) says so and resends the same bet with the same client_ref', async () => {
    let attempt = 0;
    const calls = setUp({
      ...placing(() => {
        attempt += 1;
        if (attempt === 1) {
          return { httpStatus: 503, message: 'The exchange could not confirm your bet with its database. Check your open bets before you place it again.' };
        }
        return { data: { bet_id: 7, status: 'matched', size_matched: 100, avg_price_matched: 2.5, message: 'This bet was already placed with the same client_ref.', repeated: true } };
      }),
    });
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const user = userEvent.setup();
    const slip = await screen.findByTestId('bet-slip');
    await user.type(within(slip).getByTestId('slip-stake'), '100');
    await user.click(within(slip).getByTestId('place-bet'));
    const error = await within(slip).findByTestId('slip-error');
    expect(error).toHaveTextContent('could not confirm your bet');
    expect(error).toHaveTextContent('Press Place Bet again to send the same bet');
    expect(error).not.toHaveTextContent('Bet not placed');
    await user.click(within(slip).getByTestId('place-bet'));
    expect(await screen.findByTestId('bet-outcome')).toHaveTextContent('already placed');
    const [a, b] = placed(calls).map((c) => (c.body as { client_ref: string }).client_ref);
    expect(b).toBe(a);
  });

  it('sends a fancy Yes at the posted line and rate, and a bookmaker bet at the rate', async () => {
    const calls = setUp({
      'POST /api/match/matchDetail': { data: detail([matchOdds(), { ...bookmaker, status: 'open' }, fancy]) },
      ...placing({ data: { bet_id: 1, status: 'matched', size_matched: 200, avg_price_matched: 90, message: 'Bet matched.' } }),
    });
    renderApp('/game-details/4/100');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('fancy-yes'));
    let slip = screen.getByTestId('bet-slip');
    expect(within(slip).getByTestId('slip-rate')).toHaveTextContent('49 / 90');
    await user.type(within(slip).getByTestId('slip-stake'), '200');
    expect(within(slip).getByTestId('slip-profit')).toHaveTextContent('₹180.00');
    expect(within(slip).getByTestId('slip-liability')).toHaveTextContent('₹200.00');
    await user.click(within(slip).getByTestId('place-bet'));
    await screen.findByTestId('bet-outcome');
    expect(placed(calls)[0].body).toMatchObject({ market_id: 3, side: 'yes', price: '90', line: 49, stake: '200.00' });
    expect(placed(calls)[0].body).not.toHaveProperty('selection_id');

    await user.click(screen.getAllByTestId('bm-lay')[0]);
    slip = screen.getByTestId('bet-slip');
    expect(within(slip).getByTestId('slip-rate')).toHaveTextContent('47');
    await user.type(within(slip).getByTestId('slip-stake'), '200');
    expect(within(slip).getByTestId('slip-liability')).toHaveTextContent('₹94.00');
    await user.click(within(slip).getByTestId('place-bet'));
    await waitFor(() => expect(placed(calls)).toHaveLength(2));
    expect(placed(calls)[1].body).toMatchObject({ market_id: 2, selection_id: 21, side: 'lay', price: '47', stake: '200.00' });
  });

  it('never follows a moved bookmaker rate or fancy line: it asks, and places at the new one only once accepted', async () => {
    let backRate = 45;
    let lineYes = 49;
    const calls = setUp({
      'POST /api/match/matchDetail': () => ({
        data: detail([
          matchOdds(),
          { ...bookmaker, status: 'open', runners: [{ ...bookmaker.runners[0], back: [{ price: backRate, size: 500000 }] }, bookmaker.runners[1]] },
          { ...fancy, line_yes: lineYes },
        ]),
      }),
      ...placing((call) => {
        const body = call.body as { market_id: number; price: string; line?: number };
        const stale = body.market_id === 2 ? Number(body.price) !== backRate : body.line !== lineYes;
        if (stale) return { httpStatus: 409, message: 'Odds changed: the rate is now different. Check the new price.' };
        return { data: { bet_id: 4, status: 'matched', size_matched: 200, avg_price_matched: Number(body.price), message: 'Bet matched.' } };
      }),
    });
    renderApp('/game-details/4/100');
    const user = userEvent.setup();
    await user.click((await screen.findAllByTestId('bm-back'))[0]);
    let slip = screen.getByTestId('bet-slip');
    expect(within(slip).getByTestId('slip-rate')).toHaveTextContent('45');
    await user.type(within(slip).getByTestId('slip-stake'), '200');
    // The rate moves between the click and the placement: the server refuses the stale one,
    // the slip shows the new rate as a question and keeps the one taken.
    backRate = 42;
    await user.click(within(slip).getByTestId('place-bet'));
    expect(await within(slip).findByTestId('rate-changed-text')).toHaveTextContent('Rate changed from 45 to 42 — accept?');
    expect(within(slip).getByTestId('slip-rate')).toHaveTextContent('45');
    expect(within(slip).getByTestId('place-bet')).toBeDisabled();
    expect(placed(calls).map((c) => (c.body as { price: string }).price)).toEqual(['45']);
    await user.click(within(slip).getByTestId('accept-rate'));
    expect(within(slip).queryByTestId('rate-changed')).toBeNull();
    expect(within(slip).getByTestId('slip-rate')).toHaveTextContent('42');
    await user.click(within(slip).getByTestId('place-bet'));
    expect(await screen.findByTestId('bet-outcome')).toHaveTextContent('Bet matched.');
    expect(placed(calls)[1].body).toMatchObject({ market_id: 2, selection_id: 21, side: 'back', price: '42', stake: '200.00' });

    // A fancy line that moved is asked about the same way.
    await user.click(screen.getByTestId('fancy-yes'));
    slip = screen.getByTestId('bet-slip');
    await user.type(within(slip).getByTestId('slip-stake'), '200');
    lineYes = 50;
    await user.click(within(slip).getByTestId('place-bet'));
    expect(await within(slip).findByTestId('rate-changed-text')).toHaveTextContent('Line changed from 49 @ 90 to 50 @ 90 — accept?');
    await user.click(within(slip).getByTestId('accept-rate'));
    await user.click(within(slip).getByTestId('place-bet'));
    await waitFor(() => expect(placed(calls)).toHaveLength(4));
    expect(placed(calls)[2].body).toMatchObject({ market_id: 3, side: 'yes', line: 49 });
    expect(placed(calls)[3].body).toMatchObject({ market_id: 3, side: 'yes', price: '90', line: 50 });
  });

  it('shows the average matched price beside the asked one, a fancy bet as "Yes 49 @ 100" and a bookmaker bet at its rate', async () => {
    const item = { stake: 100, matched: 100, remaining: 0, status: 'matched', persistence: 'lapse', date: '2026-11-22T10:00:00.000Z' };
    setUp({
      'POST /api/bet/openBets': {
        data: {
          matched: [
            { ...item, bet_id: 1, market_id: 1, selection_id: 11, side: 'back', price: 3.75, avg_price_matched: 3.8, line: null },
            { ...item, bet_id: 2, market_id: 3, selection_id: null, side: 'yes', price: 100, avg_price_matched: 100, line: 49 },
            { ...item, bet_id: 3, market_id: 2, selection_id: 22, side: 'lay', price: 242, avg_price_matched: 242, line: null },
          ],
          unmatched: [],
        },
      },
    });
    renderApp('/game-details/4/100');
    const [back, yes, lay] = await screen.findAllByTestId('open-bet-matched');
    expect(within(back).getByTestId('open-bet-price')).toHaveTextContent('3.80');
    expect(within(back).getByTestId('open-bet-asked')).toHaveTextContent('asked 3.75');
    expect(back).toHaveTextContent('India · Match Odds');
    expect(yes).toHaveTextContent('Yes 49 @ 100');
    expect(within(yes).queryByTestId('open-bet-asked')).toBeNull();
    expect(lay).toHaveTextContent('Lay 242');
    expect(lay).toHaveTextContent('Matched ₹100.00 of ₹100.00');
  });

  it('counts down the in-play bet delay while the bet waits', async () => {
    setUp({ 'POST /api/match/matchDetail': { data: detail([matchOdds({ in_play: true, bet_delay_s: 3 })]) } });
    const stubbed = globalThis.fetch;
    let release: (() => void) | undefined;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (String(input).endsWith('/bet/placeBet')) {
        await new Promise<void>((resolve) => (release = resolve));
        return new Response(JSON.stringify({ status: true, message: '', data: { bet_id: 3, status: 'unmatched', size_matched: 0, avg_price_matched: null, message: 'Bet placed, waiting to be matched.' } }));
      }
      return stubbed(input, init);
    });
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const slip = await screen.findByTestId('bet-slip');
    expect(within(screen.getByTestId('market')).getByText('Delay 3s')).toBeInTheDocument();
    fireEvent.change(within(slip).getByTestId('slip-stake'), { target: { value: '100' } });
    fireEvent.click(within(slip).getByTestId('place-bet'));
    expect(await within(slip).findByTestId('bet-delay-seconds')).toHaveTextContent('3');
    expect(within(slip).getByTestId('place-bet')).toBeDisabled();
    await waitFor(() => expect(within(slip).getByTestId('bet-delay-seconds')).toHaveTextContent('2'), { timeout: 2500 });
    act(() => release?.());
    expect(await screen.findByTestId('bet-outcome')).toHaveTextContent('waiting to be matched');
  });

  it('shows each exchange market’s total matched, and opens a runner’s ladder whose price goes on the slip', async () => {
    const ladder = {
      market_id: 1,
      selection_id: 11,
      name: 'India',
      status: 'open',
      in_play: false,
      last_traded_price: 2.5,
      total_matched: 300,
      levels: [
        { price: 2.5, back_size: 1000, lay_size: 0, traded: 300, my_back: 0, my_lay: 0 },
        { price: 2.52, back_size: 0, lay_size: 900, traded: 0, my_back: 0, my_lay: 0 },
        { price: 3.5, back_size: 0, lay_size: 40, traded: 0, my_back: 40, my_lay: 0 },
      ],
    };
    const calls = setUp({
      'POST /api/match/matchDetail': { data: detail([matchOdds({ total_matched: 12345.5 }), bookmaker]) },
      'POST /api/market/ladder': { data: ladder },
    });
    renderApp('/game-details/4/100');
    const odds = (await screen.findByText('Match Odds')).closest('section')!;
    expect(within(odds).getByTestId('market-matched')).toHaveTextContent('Matched ₹12,345.50');
    // The house takes every bookmaker bet: nothing matched to show.
    expect(within(screen.getByText('Bookmaker').closest('section')!).queryByTestId('market-matched')).toBeNull();

    const user = userEvent.setup();
    await user.click(within(within(odds).getAllByTestId('runner')[0]).getByRole('button', { name: 'Ladder and chart of India' }));
    const dialog = await screen.findByTestId('ladder-modal');
    expect(calls.find((c) => c.path === '/api/market/ladder')?.body).toEqual({ market_id: 1, selection_id: 11 });
    const at = (price: string) => within(dialog).getAllByTestId('ladder-row').find((r) => r.dataset.price === price)!;
    await within(dialog).findAllByTestId('ladder-row');
    // The caller's own back of 40 at 3.50, and 300 traded at 2.50.
    expect(within(at('3.50')).getByTestId('ladder-my-back')).toHaveTextContent('40');
    expect(within(at('2.50')).getByTestId('ladder-traded')).toHaveTextContent('300');
    // A price far from the best three goes on the slip as a price box would put it.
    await user.click(within(at('3.50')).getByRole('button', { name: 'Lay India at 3.50' }));
    expect(screen.queryByTestId('ladder-modal')).toBeNull();
    const slip = screen.getByTestId('bet-slip');
    expect(within(slip).getByTestId('slip-side')).toHaveTextContent('Lay');
    expect(within(slip).getByTestId('slip-runner')).toHaveTextContent('India');
    expect(within(slip).getByTestId('slip-odds')).toHaveValue('3.50');
  });

  it('lists unmatched bets and cancels one', async () => {
    let cancelled = false;
    const bet = { bet_id: 77, market_id: 1, selection_id: 12, side: 'lay', price: 1.9, avg_price_matched: null, line: null, stake: 300, matched: 0, remaining: 300, status: 'unmatched', persistence: 'lapse', date: '2026-11-22T10:00:00.000Z' };
    const calls = setUp({
      'POST /api/bet/openBets': () => ({ data: { matched: [], unmatched: cancelled ? [] : [bet] } }),
      'POST /api/bet/cancelBet': () => {
        cancelled = true;
        return { message: 'Cancelled 300.00.', data: { bet_id: 77, cancelled: 300, remaining: 0 } };
      },
    });
    renderApp('/game-details/4/100');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('open-bets-unmatched-tab'));
    const item = await screen.findByTestId('open-bet-unmatched');
    expect(item).toHaveTextContent('Australia · Match Odds');
    expect(item).toHaveTextContent('Lay 1.90');
    expect(item).toHaveTextContent('Unmatched ₹300.00 of ₹300.00');
    await user.click(within(item).getByTestId('cancel-bet'));
    await waitFor(() => expect(screen.queryByTestId('open-bet-unmatched')).toBeNull());
    expect(calls.find((c) => c.path === '/api/bet/cancelBet')?.body).toEqual({ bet_id: 77 });
    expect(screen.getByTestId('open-bets-unmatched-tab')).toHaveTextContent('Unmatched (0)');
  });
});

describe("a market's rules and commission", () => {
  it("opens the rules on the market's own tab, with its commission, and shows the slip's profit net of it", async () => {
    setUp({ 'POST /api/match/matchDetail': { data: detail([matchOdds({ commission_bp: 200 }), { ...bookmaker, status: 'open' }, fancy]) } });
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const user = userEvent.setup();
    const slip = await screen.findByTestId('bet-slip');
    await user.type(within(slip).getByTestId('slip-stake'), '100');
    // 100 at 2.50 wins 150.00; 2% of it is 3.00.
    expect(within(slip).getByTestId('slip-profit')).toHaveTextContent('₹150.00');
    expect(within(slip).getByTestId('slip-commission')).toHaveTextContent('Net of 2% commission');
    expect(within(slip).getByTestId('slip-net-profit')).toHaveTextContent('₹147.00');

    const [odds, bm] = screen.getAllByTestId('market');
    await user.click(within(odds).getByTestId('market-rules'));
    let modal = screen.getByTestId('rules-modal');
    // A cricket match's match odds: the Match tab (its Cricket section), not the first tab.
    expect(within(modal).getByRole('tab', { selected: true })).toHaveTextContent('Match');
    expect(within(modal).getByTestId('rules-commission')).toHaveTextContent('Match Odds: commission 2% of your net winnings on the market');
    await user.click(within(modal).getByTestId('modal-close'));

    await user.click(within(bm).getByTestId('market-rules'));
    modal = screen.getByTestId('rules-modal');
    expect(within(modal).getByRole('tab', { selected: true })).toHaveTextContent('Bookmaker');
    expect(within(modal).getByTestId('rules-commission')).toHaveTextContent('Bookmaker: no commission.');
    await user.click(within(modal).getByTestId('modal-close'));

    await user.click(within(screen.getByTestId('fancy-markets')).getByTestId('market-rules'));
    expect(within(screen.getByTestId('rules-modal')).getByRole('tab', { selected: true })).toHaveTextContent('Fancy');
    await user.click(within(screen.getByTestId('rules-modal')).getByTestId('modal-close'));

    // The header's Rules link on a cricket match opens on cricket's rules too.
    await user.click(screen.getByTestId('rules-link'));
    modal = screen.getByTestId('rules-modal');
    expect(within(modal).getByRole('tab', { selected: true })).toHaveTextContent('Match');
    expect(within(modal).queryByTestId('rules-commission')).toBeNull();
  });

  it('shows no net line on a market without commission', async () => {
    setUp();
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const slip = await screen.findByTestId('bet-slip');
    expect(within(slip).queryByTestId('slip-net-profit')).toBeNull();
  });

  it("opens the header's rules on Horse Racing from a race card", async () => {
    const race = detail([matchOdds({ market_id: 9, name: 'Win', type: 'win' })]);
    race.match = { ...race.match, name: '14:30 Ascot', match_name: '14:30 Ascot', sport_id: 7, sport_name: 'Horse Racing' };
    setUp({ 'POST /api/match/matchDetail': { data: race } });
    renderApp('/horse-racing/100/2026-11-22');
    await screen.findAllByTestId('runner');
    await userEvent.setup().click(screen.getByTestId('rules-link'));
    expect(within(screen.getByTestId('rules-modal')).getByRole('tab', { selected: true })).toHaveTextContent('Horse Racing');
  });
});

describe('the match page on a phone', () => {
  it('puts the open bets in a tab above the markets, not below every fancy line', async () => {
    const item = { stake: 100, matched: 100, remaining: 0, status: 'matched', persistence: 'lapse', date: '2026-11-22T10:00:00.000Z' };
    setUp({
      'POST /api/bet/openBets': {
        data: { matched: [{ ...item, bet_id: 1, market_id: 1, selection_id: 11, side: 'back', price: 2.5, avg_price_matched: 2.5, line: null }], unmatched: [] },
      },
    });
    const width = window.innerWidth;
    // jsdom has no matchMedia: the app reads the window's width instead (hooks/useIsNarrow).
    window.innerWidth = 390;
    try {
      renderApp('/game-details/4/100');
      const user = userEvent.setup();
      const tab = await screen.findByTestId('board-bets-tab');
      await waitFor(() => expect(tab).toHaveTextContent('Open Bets (1)'));
      expect(screen.queryByTestId('open-bets')).toBeNull();
      // The tab comes before the markets, the fancy lines included.
      expect(tab.compareDocumentPosition(screen.getByTestId('fancy-row')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

      await user.click(tab);
      expect(within(screen.getByTestId('open-bets')).getByTestId('open-bet-matched')).toHaveTextContent('India · Match Odds');
      expect(screen.queryByTestId('fancy-row')).toBeNull();
      await user.click(screen.getByTestId('board-markets-tab'));
      expect(screen.getByTestId('fancy-row')).toBeInTheDocument();
      expect(screen.queryByTestId('open-bets')).toBeNull();
    } finally {
      window.innerWidth = width;
    }
  });

  it('keeps the open bets beside the markets on a computer, with no tabs', async () => {
    setUp();
    renderApp('/game-details/4/100');
    expect(await screen.findByTestId('open-bets')).toBeInTheDocument();
    expect(screen.getByTestId('fancy-row')).toBeInTheDocument();
    expect(screen.queryByTestId('board-bets-tab')).toBeNull();
  });
});

describe('the fancy book', () => {
  it('shows the P&L per run range, "and above" for the last one', () => {
    render(
      <FancyBook
        book={[
          { from: 0, to: 47, pnl: -300 },
          { from: 48, to: 48, pnl: 100.5 },
          { from: 49, to: 55, pnl: 0 },
          { from: 56, to: null, pnl: 250 },
        ]}
      />,
    );
    const rows = screen.getAllByTestId('fancy-book-row').map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).toEqual([
      ['0–47', '-₹300.00'],
      ['48', '₹100.50'],
      ['49–55', '₹0.00'],
      ['56 and above', '₹250.00'],
    ]);
    expect(screen.getAllByTestId('fancy-book-row')[0].querySelector('td:last-child')).toHaveClass('lose');
    expect(screen.getAllByTestId('fancy-book-row')[3].querySelector('td:last-child')).toHaveClass('win');
  });

  it('opens from the Book button with the server’s ranges, or says there are no bets', async () => {
    setUp({ 'POST /api/match/matchDetail': { data: detail([fancy, { ...fancy, market_id: 4, name: '10 over runs India', book: [] }]) } });
    renderApp('/game-details/4/100');
    const user = userEvent.setup();
    const [first, second] = await screen.findAllByTestId('fancy-book-button');
    await user.click(first);
    const modal = screen.getByTestId('fancy-book-modal');
    expect(modal).toHaveTextContent('Book: 6 over runs India');
    expect(within(modal).getAllByTestId('fancy-book-row').map((r) => r.textContent)).toEqual(['0–48-₹100.00', '49 and above₹90.00']);
    await user.click(within(modal).getByTestId('modal-close'));
    await user.click(second);
    expect(screen.getByTestId('fancy-book-empty')).toHaveTextContent('You have no bets on this fancy yet.');
    // No bets on a line: no position on its row.
    expect(within(screen.getAllByTestId('fancy-row')[1]).queryByTestId('fancy-position')).toBeNull();
  });
});

function count(calls: Call[], path: string): number {
  return calls.filter((c) => c.path === `/api/${path}`).length;
}

describe('the match page header and live score', () => {
  const cricket = {
    sport: 'cricket' as const,
    innings: [{ side: 'India', runs: 45, wickets: 2, overs: 5, balls: 3, overs_text: '5.3' }],
    overs_limit: 20,
    last_balls: ['1', '4', 'W'],
    run_rate: 8.18,
    target: null,
    runs_needed: null,
    balls_left: null,
    required_rate: null,
  };

  it('shows the start time before the off, and no connection words while the stream is fine', async () => {
    setUp();
    renderApp('/game-details/4/100');
    expect(await screen.findByTestId('match-date')).toHaveTextContent('22/11/2026 19:30:00');
    expect(screen.queryByTestId('match-status')).toBeNull();
    expect(screen.queryByTestId('score-strip')).toBeNull();
    expect(screen.queryByText('Live')).toBeNull();
  });

  it("says In-Play with the score while in play, and follows the stream's score events", async () => {
    vi.stubGlobal('EventSource', FakeSource);
    FakeSource.opened = [];
    const playing = detail();
    playing.match = { ...playing.match, in_play: true, score: cricket };
    setUp({ 'POST /api/match/matchDetail': { data: playing }, 'POST /api/stream/ticket': { data: { ticket: 't', expires_in_s: 60 } } });
    renderApp('/game-details/4/100');
    expect(await screen.findByTestId('match-status')).toHaveTextContent('In-Play');
    expect(screen.queryByTestId('match-date')).toBeNull();
    expect(screen.getByTestId('score-runs')).toHaveTextContent('45/2');
    await waitFor(() => expect(FakeSource.opened.length).toBeGreaterThan(0));
    const source = FakeSource.last();
    act(() => {
      source.emit('open');
      source.emit('score', { match_id: 100, in_play: true, score: { ...cricket, innings: [{ ...cricket.innings[0], runs: 49, balls: 4, overs_text: '5.4' }] }, result: null });
    });
    await waitFor(() => expect(screen.getByTestId('score-runs')).toHaveTextContent('49/2'));
    expect(screen.getByTestId('connection')).toHaveTextContent('');
    // Another match's score is not this page's.
    act(() => source.emit('score', { match_id: 7, in_play: false, score: null, result: 'Other won' }));
    act(() => source.emit('score', { match_id: 100, in_play: false, score: cricket, result: 'India won by 12 runs' }));
    expect(await screen.findByTestId('result-banner')).toHaveTextContent('India won by 12 runs');
    expect(screen.getByTestId('match-status')).toHaveTextContent('Finished');
    vi.unstubAllGlobals();
  });

  it('drops settled fancy lines and shows a result banner once every market is settled', async () => {
    const settled = detail([matchOdds({ status: 'closed' }), { ...fancy, status: 'closed' }]);
    setUp({ 'POST /api/match/matchDetail': { data: settled } });
    renderApp('/game-details/4/100');
    expect(await screen.findByTestId('result-banner')).toHaveTextContent('This event has ended.');
    expect(screen.queryByTestId('fancy-row')).toBeNull();
    expect(screen.getByTestId('match-status')).toHaveTextContent('Finished');
  });
});

describe('a race card with a non-runner', () => {
  it('labels the withdrawn horse and offers no price for it', async () => {
    const win = matchOdds({
      market_id: 9,
      name: 'Win',
      type: 'win',
      runners: [
        { selection_id: 91, name: 'Red Rum', back: [{ price: 3, size: 100 }], lay: [{ price: 3.1, size: 100 }], position: 0, removed: false },
        { selection_id: 92, name: 'Arkle', back: [], lay: [], position: 0, removed: true },
      ],
    });
    const race = detail([win]);
    race.match = { ...race.match, name: '14:30 Ascot', match_name: '14:30 Ascot', sport_id: 7, sport_name: 'Horse Racing' };
    setUp({ 'POST /api/match/matchDetail': { data: race } });
    renderApp('/horse-racing/100/2026-11-22');
    const [redRum, arkle] = await screen.findAllByTestId('runner');
    expect(within(arkle).getByTestId('non-runner')).toHaveTextContent('Non-runner');
    expect(within(arkle).queryAllByRole('button')).toEqual([]);
    expect(within(redRum).queryByTestId('non-runner')).toBeNull();
    expect(within(redRum).getByTestId('best-back')).toHaveTextContent('3');
  });
});

describe('a race card before the off', () => {
  it('counts down to the off, each second, and shows no countdown once in play', async () => {
    const race = detail([matchOdds({ market_id: 9, name: 'Win', type: 'win' })]);
    const off = new Date(Date.now() + 90_500).toISOString();
    race.match = { ...race.match, name: '14:30 Ascot', match_name: '14:30 Ascot', sport_id: 7, sport_name: 'Horse Racing', open_date: off };
    setUp({ 'POST /api/match/matchDetail': { data: race } });
    const { unmount } = renderApp('/horse-racing/100/2026-11-22');
    const countdown = await screen.findByTestId('race-countdown');
    expect(countdown).toHaveTextContent(/^Off in 1m (29|30|31)s$/);
    const first = countdown.textContent;
    await waitFor(() => expect(screen.getByTestId('race-countdown').textContent).not.toBe(first), { timeout: 2500 });
    unmount();

    race.match = { ...race.match, in_play: true, open_date: new Date(Date.now() - 60_000).toISOString() };
    setUp({ 'POST /api/match/matchDetail': { data: race } });
    renderApp('/horse-racing/100/2026-11-22');
    expect(await screen.findByTestId('match-status')).toHaveTextContent('In-Play');
    expect(screen.queryByTestId('race-countdown')).toBeNull();
  });

  it('writes the time left as a bettor reads it', () => {
    expect(countdownText(3_900_000)).toBe('1h 05m');
    expect(countdownText(249_000)).toBe('4m 09s');
    expect(countdownText(45_000)).toBe('45s');
    expect(countdownText(44_100)).toBe('45s');
    expect(countdownText(-5)).toBe('0s');
  });
});

describe("a race card's runners", () => {
  it('show the draw, jockey and trainer the server holds, and nothing where it holds none', async () => {
    const win = matchOdds({
      market_id: 9,
      name: 'Win',
      type: 'win',
      runners: [
        { selection_id: 91, name: 'Red Rum', back: [{ price: 3, size: 100 }], lay: [{ price: 3.1, size: 100 }], position: 0, removed: false },
        { selection_id: 92, name: 'Arkle', back: [{ price: 4, size: 100 }], lay: [], position: 0, removed: false },
        { selection_id: 93, name: 'Kauto Star', back: [], lay: [], position: 0, removed: false },
      ],
    });
    const race = detail([win]);
    race.match = { ...race.match, name: '14:30 Ascot', match_name: '14:30 Ascot', sport_id: 7, sport_name: 'Horse Racing' };
    race.runner_cards = [
      { selection_id: 91, draw: 4, jockey: 'R. Moore', trainer: "A. P. O'Brien" },
      { selection_id: 92, draw: 7, jockey: null, trainer: null },
    ];
    setUp({ 'POST /api/match/matchDetail': { data: race } });
    renderApp('/horse-racing/100/2026-11-22');
    const [redRum, arkle, kautoStar] = await screen.findAllByTestId('runner');
    expect(within(redRum).getByTestId('runner-card')).toHaveTextContent("Draw 4J: R. MooreT: A. P. O'Brien");
    expect(within(redRum).getByTestId('runner-jockey')).toHaveAttribute('title', 'Jockey');
    expect(within(arkle).getByTestId('runner-card')).toHaveTextContent('Draw 7');
    expect(within(arkle).queryByTestId('runner-jockey')).toBeNull();
    expect(within(kautoStar).queryByTestId('runner-card')).toBeNull();
  });
});

describe('a race card once run', () => {
  it('shows the result and the placings the server holds', async () => {
    const race = detail([matchOdds({ market_id: 9, name: 'Win', type: 'win', status: 'closed' })]);
    race.match = {
      ...race.match,
      match_id: 100,
      name: '14:30 Ascot',
      match_name: '14:30 Ascot',
      sport_id: 7,
      sport_name: 'Horse Racing',
      finished: true,
      score: { sport: 'race', placings: ['Red Rum', 'Arkle', 'Kauto Star'] },
      result: 'Won by Red Rum',
    };
    setUp({ 'POST /api/match/matchDetail': { data: race } });
    renderApp('/horse-racing/100/2026-11-22');
    expect(await screen.findByTestId('result-banner')).toHaveTextContent('Won by Red Rum');
    const placings = screen.getByTestId('score-placings').querySelectorAll('li');
    expect([...placings].map((p) => p.textContent)).toEqual(['1st Red Rum', '2nd Arkle', '3rd Kauto Star']);
    expect(screen.queryByTestId('match-status')).toBeNull();
  });
});

describe('what the bettor’s loss limit leaves, on the slip', () => {
  const limits = (leftRupees: number | null) => ({
    data: {
      limits: leftRupees === null ? [] : [{ kind: 'loss', period: 'day', value: 2000 }],
      pending: [],
      left: leftRupees === null ? [] : [{ kind: 'loss', period: 'day', value: leftRupees }],
      operator_max_stake: null,
    },
  });

  it('says how much more can be lost today, and reads it again once a bet is placed', async () => {
    let left = 1240;
    const calls = setUp({
      'GET /api/user/limits': () => limits(left),
      ...placing(() => {
        left = 1140;
        return { message: 'Bet matched.', data: { bet_id: 9, status: 'matched', size_matched: 100, avg_price_matched: 2.5, message: 'Bet matched.' } };
      }),
    });
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const user = userEvent.setup();
    const slip = await screen.findByTestId('bet-slip');
    expect(await within(slip).findByTestId('limit-left-loss')).toHaveTextContent('You can lose ₹1,240.00 more today.');
    const before = count(calls, 'user/limits');
    await user.type(within(slip).getByTestId('slip-stake'), '100');
    await user.click(within(slip).getByTestId('place-bet'));
    expect(await screen.findByTestId('bet-outcome')).toHaveTextContent('Bet matched.');
    await waitFor(() => expect(count(calls, 'user/limits')).toBeGreaterThan(before));
    await user.click(screen.getAllByTestId('best-back')[0]);
    expect(await within(screen.getByTestId('bet-slip')).findByText('You can lose ₹1,140.00 more today.')).toBeInTheDocument();
  });

  it('says nothing without a loss limit, and the refusal in words when a bet would pass it', async () => {
    setUp({
      'GET /api/user/limits': limits(null),
      'POST /api/bet/placeBet': {
        httpStatus: 422,
        message: 'Loss limit.',
        data: { refusal: { refusal: 'loss_limit', left_minor: 50_00, period: 'week', limit_minor: 10_000_00 } },
      },
    });
    renderApp('/game-details/4/100?market=1&selection=11&side=back&price=2.5');
    const user = userEvent.setup();
    const slip = await screen.findByTestId('bet-slip');
    await user.type(within(slip).getByTestId('slip-stake'), '100');
    await user.click(within(slip).getByTestId('place-bet'));
    expect(await within(slip).findByTestId('slip-error')).toHaveTextContent(
      'This would go past your weekly loss limit of ₹10,000.00: you can lose ₹50.00 more this week.',
    );
    expect(within(slip).queryByTestId('limit-left-loss')).toBeNull();
  });
});
