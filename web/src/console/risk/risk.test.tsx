import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FakeSource } from '../../testing/fake-event-source';
import { EMPTY_CATALOGUE, stubServer, type Answers } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';

const agent = { ...demoUser, user_id: 2, user_name: 'agent', role: 'agent' as const, parent_id: 1 };

const analysis = {
  match_id: 7,
  name: 'India v Pakistan',
  in_play: true,
  markets: [
    {
      market_id: 70,
      name: 'Bookmaker',
      market_type: 'bookmaker',
      status: 'open',
      runners: [
        { selection_id: 1, name: 'India', house_pnl: -251 },
        { selection_id: 2, name: 'Pakistan', house_pnl: 100 },
      ],
      fancy: [],
      line_no: null,
      line_yes: null,
      bets: 1,
    },
    {
      market_id: 71,
      name: '6 over runs',
      market_type: 'fancy',
      status: 'ball_running',
      runners: [],
      fancy: [
        { from: 0, to: 47, pnl: -20 },
        { from: 48, to: null, pnl: 20 },
      ],
      line_no: 48,
      line_yes: 49,
      bets: 1,
    },
  ],
};
const bet = { bet_id: 5, user_id: 9, user_name: 'ravi', side: 'back', selection_name: 'India', price: 251, line: null, stake: 100, matched: 100, status: 'matched', date: '2026-01-02T03:04:05Z' };

const RISK: Answers = {
  ...EMPTY_CATALOGUE,
  'POST /api/stream/ticket': { httpStatus: 503, message: 'busy' },
  'POST /api/console/market/analysis': { data: analysis },
  'POST /api/console/market/bets': { data: { rows: [bet], total: 1, page: 1, limit: 25 } },
};

describe('market analysis', () => {
  it("colours the house's position per runner and per run, green up and red down", async () => {
    const calls = stubServer(RISK);
    storeSession(agent);
    renderApp('/console/risk/7');
    const [bookmaker, fancy] = await screen.findAllByTestId('risk-market');
    const runners = within(bookmaker).getAllByTestId('risk-runner');
    expect(within(runners[0]).getByText('-₹251.00')).toHaveClass('pnl', 'lose');
    expect(within(runners[1]).getByText('₹100.00')).toHaveClass('pnl', 'win');
    const runs = within(fancy).getAllByTestId('risk-run');
    // Lines 48 and 49, three runs either side, the rest folded: 0–44, 45…52, 53 and above.
    expect(runs.map((row) => row.firstChild?.textContent)).toEqual(['0–44', '45', '46', '47', '48', '49', '50', '51', '52', '53 and above']);
    expect(within(runs[3]).getByText('-₹20.00')).toHaveClass('lose');
    expect(within(runs[4]).getByText('₹20.00')).toHaveClass('win');
    expect(calls.find((c) => c.path === '/api/console/market/analysis')?.body).toEqual({ match_id: 7 });
  });

  it("lists the downline's bets of a market and filters them by user and side", async () => {
    const calls = stubServer(RISK);
    storeSession(agent);
    renderApp('/console/risk/7');
    const row = await screen.findByTestId('risk-bet-row');
    expect(within(row).getByRole('link', { name: 'ravi' })).toHaveAttribute('href', '#/console/account/9');
    const user = userEvent.setup();
    await user.selectOptions(screen.getByTestId('risk-bets-side'), 'lay');
    await user.type(screen.getByTestId('risk-bets-user'), 'ra');
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/console/market/bets').at(-1)?.body).toEqual({ market_id: 70, user: 'ra', side: 'lay', page: 1, limit: 25 }),
    );
    await user.selectOptions(screen.getByTestId('risk-bets-market'), '71');
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/console/market/bets').at(-1)?.body).toMatchObject({ market_id: 71 }));
  });

  it('asks for the analysis again while the stream is down (polling)', async () => {
    const calls = stubServer(RISK);
    storeSession(agent);
    renderApp('/console/risk/7');
    await screen.findAllByTestId('risk-market');
    const asked = () => calls.filter((c) => c.path === '/api/console/market/analysis').length;
    await waitFor(() => expect(asked()).toBeGreaterThanOrEqual(2), { timeout: 4000 });
  });

  it("asks again when a market moves, not for the stream's opening snapshot and score", async () => {
    vi.stubGlobal('EventSource', FakeSource);
    FakeSource.opened = [];
    const calls = stubServer({ ...RISK, 'POST /api/stream/ticket': { data: { ticket: 't', expires_in_s: 60 } } });
    storeSession(agent);
    renderApp('/console/risk/7');
    await screen.findAllByTestId('risk-market');
    await waitFor(() => expect(FakeSource.opened.length).toBeGreaterThan(0));
    const asked = () => calls.filter((c) => c.path === '/api/console/market/analysis').length;
    const source = FakeSource.last();
    act(() => {
      source.emit('open');
      source.emit('snapshot', []);
      source.emit('score', { match_id: 7, in_play: true, score: null, result: null });
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked()).toBe(1);
    act(() => source.emit('market', { market_id: 70 }));
    await waitFor(() => expect(asked()).toBe(2));
  });
});

describe('a downline account', () => {
  it('shows its statement, current bets and P&L in tabs', async () => {
    const calls = stubServer({
      ...RISK,
      'POST /api/console/account/pnl': {
        data: { user_id: 9, user_name: 'ravi', role: 'client', total: -127, rows: [{ kind: 'settlement', market_id: 70, match_name: 'India v Pakistan', market_name: 'Bookmaker', pnl: -127, date: '2026-01-02T03:04:05Z' }] },
      },
      'POST /api/console/account/statement': {
        data: { rows: [{ date: '2026-01-02T03:04:05Z', description: 'Deposit from agent', credit: 500, debit: 0, balance: 500, remark: '', kind: 'deposit', market_id: null }], total: 1, page: 1, limit: 25 },
      },
      'POST /api/console/account/bets': {
        data: { rows: [{ ...bet, market_id: 70, selection_id: 1, avg_price_matched: 251, remaining: 0, persistence: 'lapse', match_id: 7, match_name: 'India v Pakistan', market_name: 'Bookmaker', market_type: 'bookmaker' }], total: 1, page: 1, limit: 25 },
      },
    });
    storeSession(agent);
    renderApp('/console/account/9');
    expect(await screen.findByRole('heading', { name: 'ravi' })).toBeInTheDocument();
    expect(await screen.findByTestId('account-statement-row')).toHaveTextContent('Deposit from agent');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('account-tab-bets'));
    expect(await screen.findByTestId('account-bet-row')).toHaveTextContent('Bookmaker');
    await user.click(screen.getByTestId('account-tab-pnl'));
    expect(screen.getByTestId('account-pnl-total')).toHaveTextContent('-₹127.00');
    expect(within(screen.getByTestId('account-pnl-row')).getByText('-₹127.00')).toHaveClass('lose');
    for (const path of ['statement', 'bets', 'pnl']) {
      expect(calls.find((c) => c.path === `/api/console/account/${path}`)?.body).toMatchObject({ user_id: 9 });
    }
  });
});
