// Bet History: closed bets with their average price, status (a lapsed part beside a settled
// one), P&L, commission and net, the totals of every bet listed, and the filters sent as chosen.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, lastBodyTo } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';

const bet = {
  sport_id: 4,
  sport_name: 'Cricket',
  match_id: 17,
  match_name: 'India v Australia',
  market_id: 31,
  market_name: 'Match Odds',
  market_type: 'match_odds',
  selection_id: 1,
  selection_name: 'India',
  line: null,
  lapsed: 0,
  cancelled: 0,
  placed_at: '2026-11-22T14:00:00.000Z',
  settled_at: '2026-11-22T16:00:00.000Z',
};

const ROWS = [
  { ...bet, bet_id: 1, status: 'settled', side: 'back', price: 2.5, avg_price_matched: 2.6, stake: 100, matched: 100, pnl: 160, commission: 8, net: 152 },
  { ...bet, bet_id: 2, status: 'settled', side: 'back', price: 4, avg_price_matched: 4, stake: 100, matched: 40, lapsed: 60, pnl: -40, commission: 0, net: -40 },
  { ...bet, bet_id: 3, status: 'cancelled', side: 'lay', price: 10, avg_price_matched: null, stake: 10, matched: 0, cancelled: 10, pnl: 0, commission: null, net: 0 },
  { ...bet, bet_id: 4, status: 'lapsed', side: 'back', price: 3, avg_price_matched: 3, stake: 50, matched: 20, lapsed: 30, pnl: null, commission: null, net: null },
];

describe('Bet History', () => {
  it('lists closed bets with the totals of every bet listed and sends the filters chosen', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/sport/getSports': { data: [{ sport_id: 4, name: 'Cricket', is_active: 1, order: 1 }, { sport_id: 1, name: 'Football', is_active: 1, order: 2 }] },
      'POST /api/report/betHistory': (call) =>
        (call.body as { status?: string }).status === 'lapsed'
          ? { data: { rows: [ROWS[1], ROWS[3]], total: 2, page: 1, limit: 20, totals: { bets: 2, stake: 150, matched: 60, pnl: -40, commission: 0, net: -40 } } }
          : { data: { rows: ROWS, total: 24, page: 1, limit: 20, totals: { bets: 24, stake: 2600, matched: 1800, pnl: 120, commission: 8, net: 112 } } },
    });
    storeSession();
    renderApp('/report/bet-history');
    const user = userEvent.setup();
    const table = await screen.findByTestId('report-table');
    await within(table).findAllByText('India v Australia');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Placed', 'Settled', 'Event', 'Market', 'Selection', 'Type', 'Price', 'Stake', 'Matched', 'Status', 'P&L', 'Commission', 'Net',
    ]);
    const cells = within(table)
      .getAllByRole('row')
      .slice(1, 5)
      .map((tr) => within(tr).getAllByRole('cell').slice(5).map((c) => c.textContent));
    expect(cells).toEqual([
      ['Back', '2.60', '₹100.00', '₹100.00', 'Settled', '₹160.00', '₹8.00', '₹152.00'],
      // Partly matched, then lapsed, then settled: both figures.
      ['Back', '4.00', '₹100.00', '₹40.00', 'Settled (lapsed ₹60.00)', '-₹40.00', '₹0.00', '-₹40.00'],
      ['Lay', '10.00', '₹10.00', '₹0.00', 'Cancelled (₹10.00)', '₹0.00', '-', '₹0.00'],
      // Its matched part still waits for its market's result.
      ['Back', '3.00', '₹50.00', '₹20.00', 'Lapsed (₹30.00)', '-', '-', '-'],
    ]);
    // The totals are the whole list's (24 bets), not this page's four.
    const totals = within(table).getByTestId('report-totals');
    expect(within(totals).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Total (24 bets)', '', '', '', '', '', '', '₹2,600.00', '₹1,800.00', '', '₹120.00', '₹8.00', '₹112.00',
    ]);
    expect(screen.getByText(/Showing 1 to 20 of 24 entries/)).toBeInTheDocument();

    // Filters apply on Submit, each as the request names it.
    await user.selectOptions(screen.getByTestId('filter-status'), 'lapsed');
    await user.selectOptions(await screen.findByTestId('filter-sport-id'), '4');
    await user.selectOptions(screen.getByTestId('filter-market-type'), 'match_odds');
    await user.selectOptions(screen.getByTestId('filter-side'), 'back');
    await user.click(screen.getByTestId('filter-submit'));
    await waitFor(() => expect(lastBodyTo(calls, '/api/report/betHistory')).toMatchObject({ status: 'lapsed', sport_id: '4', market_type: 'match_odds', side: 'back', page: 1 }));
    expect(await within(table).findByText('Total (2 bets)')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 2 + 1);

    // "All" sends no filter at all.
    await user.selectOptions(screen.getByTestId('filter-status'), '');
    await user.click(screen.getByTestId('filter-submit'));
    await waitFor(() => expect(lastBodyTo(calls, '/api/report/betHistory')).not.toHaveProperty('status'));
  });
});
