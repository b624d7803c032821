import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';

const master = { ...demoUser, user_id: 3, user_name: 'boss', role: 'agent' as const, parent_id: 1 };

const account = {
  user_id: 12,
  user_name: 'deep_one',
  role: 'client',
  parent_id: 7,
  partnership: 0,
  balance: 200,
  exposure: 30,
  available: 170,
  branch_balance: 200,
  branch_exposure: 30,
  branch_available: 170,
  pnl: -50,
  credit_reference: 1000,
  max_stake: 500,
  max_exposure: null,
  status: 'bet_locked',
  last_login: null,
  children: 0,
  path: [{ user_id: 12, user_name: 'deep_one' }],
};
const settledBet = {
  bet_id: 41,
  side: 'yes',
  selection_name: null,
  price: 100,
  line: 49,
  stake: 50,
  matched: 50,
  status: 'settled',
  date: '2026-11-20T08:30:00.000Z',
  market_id: 70,
  selection_id: null,
  avg_price_matched: 100,
  remaining: 0,
  persistence: 'lapse',
  match_id: 7,
  match_name: 'India v Pakistan',
  market_name: '6 over runs',
  market_type: 'fancy',
  pnl: -50,
};

describe("a downline account's page", () => {
  it('heads with its figures, terms, status and the way down to it, and lists its settled bets by filter', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/console/account/summary': {
        data: { account, trail: [{ user_id: 3, user_name: 'boss' }, { user_id: 7, user_name: 'sub' }, { user_id: 12, user_name: 'deep_one' }] },
      },
      'POST /api/console/account/pnl': { data: { user_id: 12, user_name: 'deep_one', role: 'client', total: -50, rows: [] } },
      'POST /api/console/account/statement': { data: { rows: [], total: 0, page: 1, limit: 25 } },
      'POST /api/console/account/safer': { data: { limits: [], pending: [], left: [], operator_max_stake: null, active_break: null } },
      'POST /api/console/account/betHistory': (call) =>
        (call.body as { outcome?: string }).outcome === 'won'
          ? { data: { rows: [], total: 0, page: 1, limit: 25 } }
          : { data: { rows: [settledBet], total: 1, page: 1, limit: 25 } },
    });
    storeSession(master);
    renderApp('/console/account/12');
    const header = await screen.findByTestId('account-header');
    expect(within(header).getByTestId('account-status')).toHaveTextContent('Bet-locked');
    expect(within(header).getByTestId('figures-balance')).toHaveTextContent('₹200.00');
    expect(within(header).getByTestId('figures-exposure')).toHaveTextContent('₹30.00');
    expect(within(header).getByTestId('account-terms')).toHaveTextContent(/Credit reference₹1,000\.00/);
    expect(within(header).getByTestId('account-terms')).toHaveTextContent(/Max stake₹500\.00/);
    // The trail from the caller; the agent on the way opens its place in the downline.
    expect(within(header).getByTestId('account-trail')).toHaveTextContent(/^boss\s*sub\s*deep_one$/);
    expect(within(header).getByRole('link', { name: 'sub' })).toHaveAttribute('href', '#/console/downline?under=7');

    const user = userEvent.setup();
    await user.click(screen.getByTestId('account-tab-history'));
    const betRow = await screen.findByTestId('account-history-row');
    expect(betRow).toHaveTextContent('6 over runs');
    expect(within(betRow).getByText('-₹50.00')).toHaveClass('lose');
    expect(calls.find((c) => c.path === '/api/console/account/betHistory')?.body).toEqual({ user_id: 12, page: 1, limit: 25 });

    await user.type(screen.getByTestId('history-from'), '2026-11-01');
    await user.selectOptions(screen.getByTestId('history-outcome'), 'won');
    await user.click(screen.getByTestId('history-apply'));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/console/account/betHistory').at(-1)?.body).toEqual({
        user_id: 12,
        from_date: '2026-11-01',
        outcome: 'won',
        page: 1,
        limit: 25,
      }),
    );
    expect(await screen.findByText('No settled bets match these filters.')).toBeInTheDocument();
  });
});
