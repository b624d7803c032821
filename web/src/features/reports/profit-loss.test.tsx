// Profit & Loss: sports with their grand total, a sport drilled down to its matches (with the
// sport's subtotal), a match to its markets, a market to the bets it settled, and back up.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Call, lastBodyTo } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';

const DATE = '2026-11-22T15:00:00.000Z';
const row = (fields: Record<string, unknown>) => ({ event: null, event_name: null, market: null, market_name: null, market_id: null, date: DATE, ...fields });
const page = (level: string, rows: unknown[], totals: Record<string, number>) => ({ data: { level, rows, total: rows.length, page: 1, limit: 20, totals } });

/** The server's answer for each level the request names. */
function profitLoss(call: Call) {
  const body = call.body as { sport?: string; event?: string };
  if (body.event === '17') {
    return page(
      'market',
      [
        row({ sport: '4', sport_name: 'Cricket', event: '17', event_name: 'India v Australia', market: '31', market_name: 'Match Odds', market_id: 31, markets: 1, pnl: 150, commission: 7.5, net: 142.5 }),
        row({ sport: '4', sport_name: 'Cricket', event: '17', event_name: 'India v Australia', market: '32', market_name: 'Bookmaker', market_id: 32, markets: 1, pnl: -100, commission: 0, net: -100 }),
      ],
      { markets: 2, pnl: 50, commission: 7.5, net: 42.5 },
    );
  }
  if (body.sport === '4') {
    return page('event', [row({ sport: '4', sport_name: 'Cricket', event: '17', event_name: 'India v Australia', markets: 2, pnl: 50, commission: 7.5, net: 42.5 })], { markets: 2, pnl: 50, commission: 7.5, net: 42.5 });
  }
  if (body.sport === 'casino') {
    return page('event', [row({ sport: 'casino', sport_name: 'Casino', event: 'teen20', event_name: 'Teen Patti T20', markets: 1, pnl: -20, commission: 0, net: -20 })], { markets: 1, pnl: -20, commission: 0, net: -20 });
  }
  return page(
    'sport',
    [
      row({ sport: '4', sport_name: 'Cricket', markets: 2, pnl: 50, commission: 7.5, net: 42.5 }),
      row({ sport: 'casino', sport_name: 'Casino', markets: 1, pnl: -20, commission: 0, net: -20 }),
    ],
    { markets: 3, pnl: 30, commission: 7.5, net: 22.5 },
  );
}

const cellsOf = (tr: HTMLElement) => within(tr).getAllByRole('cell').map((c) => c.textContent);

describe('Profit & Loss', () => {
  it('adds the sports up to a grand total and drills down sport → match → market → bets', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/profitLoss': profitLoss,
      'POST /api/report/settledBets': {
        data: [{ bet_id: 9, market_id: 31, market_name: 'Match Odds', market_type: 'match_odds', match_id: 17, match_name: 'India v Australia', selection_id: 1, selection_name: 'India', side: 'back', price: 2.5, avg_price_matched: 2.5, line: null, stake: 100, matched: 100, remaining: 0, status: 'settled', persistence: 'lapse', date: DATE, pnl: 150 }],
      },
    });
    storeSession();
    renderApp('/report/profit-loss');
    const user = userEvent.setup();

    const table = await within(await screen.findByTestId('profit-loss-page')).findByTestId('report-table');
    await within(table).findByText('Cricket');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Sport', 'Markets', 'P&L', 'Commission', 'Net']);
    expect(cellsOf(within(table).getByText('Cricket').closest('tr')!)).toEqual(['Cricket', '2', '₹50.00', '₹7.50', '₹42.50']);
    expect(cellsOf(within(table).getByTestId('report-totals'))).toEqual(['Total', '3', '₹30.00', '₹7.50', '₹22.50']);
    // Losses read red, wins green.
    expect(within(table).getByText('Casino').closest('tr')!.querySelector('td[data-label="Net"]')).toHaveClass('pnl', 'lose');
    const first = calls.find((c) => c.path === '/api/report/profitLoss')!.body as Record<string, unknown>;
    expect(first).toMatchObject({ page: 1, limit: 20 });
    expect(first).not.toHaveProperty('sport');
    expect(first.from_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // A sport: its matches and the sport's subtotal.
    await user.click(within(table).getByRole('button', { name: 'Cricket' }));
    await within(table).findByText('India v Australia');
    expect(lastBodyTo(calls, '/api/report/profitLoss')).toMatchObject({ sport: '4', page: 1 });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Event', 'Markets', 'P&L', 'Commission', 'Net']);
    expect(within(screen.getByTestId('pl-trail')).getByText('Cricket')).toHaveAttribute('aria-current', 'page');
    expect(cellsOf(within(table).getByTestId('report-totals'))).toEqual(['Cricket total', '2', '₹50.00', '₹7.50', '₹42.50']);

    // A match: its markets, each settled market's figures, the match's subtotal.
    await user.click(within(table).getByRole('button', { name: 'India v Australia' }));
    await within(table).findByText('Bookmaker');
    expect(lastBodyTo(calls, '/api/report/profitLoss')).toMatchObject({ sport: '4', event: '17' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Market', 'Settled', 'P&L', 'Commission', 'Net']);
    expect(cellsOf(within(table).getByText('Match Odds').closest('tr')!)).toEqual(['Match Odds', '22/11/2026 20:30:00', '₹150.00', '₹7.50', '₹142.50']);
    expect(cellsOf(within(table).getByTestId('report-totals'))).toEqual(['India v Australia total', '', '₹50.00', '₹7.50', '₹42.50']);

    // A market: the bets it settled.
    await user.click(within(table).getByRole('button', { name: 'Match Odds' }));
    const modal = await screen.findByTestId('settled-bets-modal');
    expect(await within(modal).findByTestId('settled-bet-pnl')).toHaveTextContent('₹150.00');
    expect(calls.find((c) => c.path === '/api/report/settledBets')!.body).toEqual({ market_id: 31 });
    await user.click(within(modal).getByRole('button', { name: /close/i }));

    // Back up the trail: to the sport, then to every sport.
    await user.click(within(screen.getByTestId('pl-trail')).getByTestId('pl-trail-sport'));
    await within(table).findByText('Cricket total');
    await user.click(within(screen.getByTestId('pl-trail')).getByTestId('pl-trail-all'));
    await within(table).findByText('Total');
    await waitFor(() => expect(lastBodyTo(calls, '/api/report/profitLoss')).not.toHaveProperty('sport'));
  });

  it('opens a casino game’s rounds, each round on its own page', async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/profitLoss': (call) =>
        (call.body as { event?: string }).event === 'teen20'
          ? page('market', [row({ sport: 'casino', sport_name: 'Casino', event: 'teen20', event_name: 'Teen Patti T20', market: 'teen20-1795356000000', market_name: 'teen20-1795356000000', markets: 1, pnl: -20, commission: 0, net: -20 })], { markets: 1, pnl: -20, commission: 0, net: -20 })
          : profitLoss(call),
    });
    storeSession();
    renderApp('/report/profit-loss');
    const user = userEvent.setup();
    const table = await screen.findByTestId('report-table');
    await user.click(await within(table).findByRole('button', { name: 'Casino' }));
    await user.click(await within(table).findByRole('button', { name: 'Teen Patti T20' }));
    const round = await within(table).findByRole('link', { name: 'teen20-1795356000000' });
    expect(round).toHaveAttribute('href', '#/casino/round/teen20-1795356000000');
  });

  it('shows the server’s refusal of a period too long', async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/profitLoss': { httpStatus: 400, message: 'to_date: The period is at most 92 days: choose a later from_date or an earlier to_date.' },
    });
    storeSession();
    renderApp('/report/profit-loss');
    expect(await screen.findByTestId('error-message')).toHaveTextContent('at most 92 days');
  });
});
