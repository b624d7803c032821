// True records in the reports: Current Bets shows the matched price beside the asked one and
// the side in words; a settlement line of the account statement opens the bets it settled.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';

const bet = { stake: 100, matched: 100, remaining: 0, status: 'matched', persistence: 'lapse', date: '2026-11-22T14:00:00.000Z', match_id: 5, match_name: 'India v Australia' };

describe('bet records in the reports', () => {
  it('Current Bets reads Back / Yes / Lay with the matched price beside the asked one', async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/currentBets': {
        data: {
          rows: [
            { ...bet, bet_id: 1, market_id: 51, market_name: 'Match Odds', market_type: 'match_odds', selection_id: 11, selection_name: 'India', side: 'back', price: 3.75, avg_price_matched: 3.8, line: null, liability: 100, profit: 280 },
            { ...bet, bet_id: 2, market_id: 52, market_name: '6 over runs India', market_type: 'fancy', selection_id: null, selection_name: null, side: 'yes', price: 100, avg_price_matched: 100, line: 49, liability: 100, profit: 100 },
            { ...bet, bet_id: 3, market_id: 53, market_name: 'Bookmaker', market_type: 'bookmaker', selection_id: 12, selection_name: 'Australia', side: 'lay', price: 242, avg_price_matched: 242, line: null, liability: 242, profit: 100 },
          ],
          total: 3,
          page: 1,
          limit: 20,
        },
      },
    });
    storeSession();
    renderApp('/report/current-bet');
    const table = await screen.findByTestId('report-table');
    await within(table).findByText('Match Odds');
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((c) => c.textContent));
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Event', 'Market', 'Selection', 'Type', 'Matched', 'Asked', 'Matched stake', 'Stake', 'Liability', 'Potential profit', 'Placed',
    ]);
    // Liability and profit as the server worked them out: a back at 3.80 risks its stake to win
    // 280.00; a bookmaker lay at 242 risks 242.00 to win its 100.00 stake.
    expect(cells).toEqual([
      ['India v Australia', 'Match Odds', 'India', 'Back', '3.80', '3.75', '₹100.00', '₹100.00', '₹100.00', '₹280.00', '22/11/2026 19:30:00'],
      ['India v Australia', '6 over runs India', '6 over runs India', 'Yes', '49 @ 100', '49 @ 100', '₹100.00', '₹100.00', '₹100.00', '₹100.00', '22/11/2026 19:30:00'],
      ['India v Australia', 'Bookmaker', 'Australia', 'Lay', '242', '242', '₹100.00', '₹100.00', '₹242.00', '₹100.00', '22/11/2026 19:30:00'],
    ]);
  });

  it('a settlement line opens the bets it settled; other lines are plain text', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/accountStatement': {
        data: {
          rows: [
            { date: '2026-11-22T15:00:00.000Z', description: 'India v Australia / Match Odds: won', credit: 56, debit: 0, balance: 100056, remark: '', kind: 'settlement', market_id: 51 },
            { date: '2026-11-22T14:00:00.000Z', description: 'Deposit from agent', credit: 100000, debit: 0, balance: 100000, remark: '', kind: 'deposit', market_id: null },
          ],
          total: 2,
          page: 1,
          limit: 20,
        },
      },
      'POST /api/report/settledBets': {
        data: [{ ...bet, bet_id: 1, market_id: 51, market_name: 'Match Odds', market_type: 'match_odds', selection_id: 11, selection_name: 'India', side: 'back', price: 3.75, avg_price_matched: 3.8, line: null, status: 'settled', stake: 20, matched: 20, pnl: 56 }],
      },
    });
    storeSession();
    renderApp('/report/account-statement');
    const user = userEvent.setup();
    const table = await screen.findByTestId('report-table');
    expect(await within(table).findByText('₹1,00,056.00')).toBeInTheDocument();
    expect(within(table).getAllByTestId('statement-bets-link')).toHaveLength(1);
    expect(within(table).getByText('Deposit from agent').tagName).toBe('TD');

    await user.click(within(table).getByTestId('statement-bets-link'));
    const modal = await screen.findByTestId('settled-bets-modal');
    expect(modal).toHaveTextContent('India v Australia / Match Odds: won');
    const row = await within(modal).findByTestId('settled-bet');
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['India', 'Back', '3.80', '3.75', '₹20.00', '₹56.00', '22/11/2026 19:30:00']);
    expect(calls.find((c) => c.path === '/api/report/settledBets')?.body).toEqual({ market_id: 51 });
  });
});
