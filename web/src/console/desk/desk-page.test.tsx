import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Answers } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';

const admin = { ...demoUser, user_id: 1, user_name: 'admin', role: 'admin' as const, parent_id: -1 };

const market = {
  match_id: 7,
  in_play: true,
  bet_delay_s: 0,
  min_stake: 100,
  max_stake: 5000,
  commission_bp: 0,
  result_selection_id: null,
  result_value: null,
  book: [],
  status: 'open',
};
const bookmaker = {
  ...market,
  market_id: 31,
  name: 'Bookmaker',
  type: 'bookmaker',
  runners: [{ selection_id: 311, name: 'Kings', back: [{ price: 45, size: 5000 }], lay: [{ price: 50, size: 5000 }], position: 0 }],
  line_no: null,
  rate_no: null,
  line_yes: null,
  rate_yes: null,
};
const fancy = { ...market, market_id: 32, name: '6 over runs', type: 'fancy', runners: [], line_no: 50, rate_no: 100, line_yes: 51, rate_yes: 100 };
const desk = { match: { match_id: 7, name: 'Kings v Riders', in_play: true }, markets: [bookmaker, fancy] };

function server(extra: Answers = {}) {
  return stubServer({ ...EMPTY_CATALOGUE, 'POST /api/admin/desk/markets': { data: desk }, ...extra }, { data: null });
}

const live = (match_id: number, name: string, markets: { market_id: number; name: string; market_type: string }[]) => ({
  match_id, name, sport_name: 'Cricket', series_name: 'IPL', in_play: false, open_date: '2026-11-25T14:00:00Z', markets,
});

describe('the trading desk', () => {
  it('opens on the matches with a bookmaker or fancy market running, each linked to its desk', async () => {
    server({
      'GET /api/console/market/live': {
        data: [
          live(7, 'Kings v Riders', [{ market_id: 30, name: 'Match Odds', market_type: 'match_odds' }, { market_id: 32, name: '6 over runs', market_type: 'fancy' }]),
          live(8, 'Ascot 14:30', [{ market_id: 40, name: 'Win', market_type: 'win' }]),
        ],
      },
    });
    storeSession(admin);
    renderApp('/console/desk');
    const rows = await screen.findAllByTestId('desk-match-row');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('6 over runs');
    expect(rows[0]).not.toHaveTextContent('Match Odds');
    await userEvent.click(within(rows[0]).getByTestId('desk-match-link'));
    expect(await screen.findByTestId('desk-row-31')).toBeInTheDocument();
  });

  it('says where to create a market when none is running', async () => {
    server({ 'GET /api/console/market/live': { data: [live(8, 'Ascot 14:30', [{ market_id: 40, name: 'Win', market_type: 'win' }])] } });
    storeSession(admin);
    renderApp('/console/desk');
    expect(await screen.findByTestId('desk-empty')).toHaveTextContent('Create one under Markets');
  });

  it('shows the key map and posts a key at once, the change shown on its row', async () => {
    const calls = server({ 'POST /api/admin/market/rates': { message: 'Rates posted.' } });
    storeSession(admin);
    renderApp('/console/desk/7');
    const row = await screen.findByTestId('desk-row-31');
    expect(screen.getByTestId('desk-keymap')).toHaveTextContent('ball running');
    expect(row).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('j');
    await userEvent.keyboard('+');
    const line = within(screen.getByTestId('desk-row-32')).getByTestId('desk-line-no');
    await waitFor(() => expect(line).toHaveTextContent('51'));
    const posted = calls.filter((c) => c.path === '/api/admin/market/rates');
    expect(posted.map((c) => c.body)).toEqual([{ market_id: 32, line_no: 51, rate_no: 100, line_yes: 52, rate_yes: 100 }]);
  });

  it("puts the row back and shows the server's refusal on it", async () => {
    server({ 'POST /api/admin/market/status': { httpStatus: 409, message: 'This market is closed.' } });
    storeSession(admin);
    renderApp('/console/desk/7');
    const row = await screen.findByTestId('desk-row-31');
    await userEvent.keyboard('b');
    expect(await within(row).findByTestId('desk-row-error')).toHaveTextContent('This market is closed.');
    expect(within(row).getByTestId('desk-status')).toHaveTextContent('open');
  });

  it('leaves keys typed into the stake fields to the fields', async () => {
    const calls = server();
    storeSession(admin);
    renderApp('/console/desk/7');
    const min = await screen.findByTestId('desk-min-stake');
    await userEvent.clear(min);
    await userEvent.type(min, 'bs');
    expect(min).toHaveValue('bs');
    expect(calls.filter((c) => c.path.startsWith('/api/admin/market/'))).toEqual([]);
    await userEvent.click(screen.getByTestId('desk-limits-save'));
    expect(await screen.findByText(/Stake must be a number/)).toBeInTheDocument();
  });
});
