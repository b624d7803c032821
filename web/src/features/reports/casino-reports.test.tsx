import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, lastBodyTo } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';

describe('casino reports', () => {
  it("Casino Result shows game, date, round (linked to its detail), each player's cards grouped by hand, and winner", async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/casinoResult': {
        data: {
          rows: [
            {
              round_id: 'teen20-1795356000000',
              game_code: 'teen20',
              game_name: 'Teen Patti T20',
              result: 'Player A: AS KD 3C (High card) | Player B: TH TD 4S (Pair of tens)',
              winner: 'Player B',
              date: '2026-11-22T14:00:31.000Z',
              cards: ['AS', 'TH', 'KD', 'TD', '3C', '4S'],
              hands: [
                { name: 'Player A', cards: ['AS', 'KD', '3C'], description: 'High card' },
                { name: 'Player B', cards: ['TH', 'TD', '4S'], description: 'Pair of tens' },
              ],
            },
          ],
          total: 1,
          page: 1,
          limit: 20,
        },
      },
    });
    storeSession();
    renderApp('/report/casino-result');

    const table = await screen.findByTestId('report-table');
    const row = await within(table).findByText('Teen Patti T20').then((cell) => cell.closest('tr')!);
    expect(within(row).getByText('22/11/2026 19:30:31')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'teen20-1795356000000' })).toHaveAttribute('href', '#/casino/round/teen20-1795356000000');
    // The cards by player, as the table dealt them: each hand's name, its three cards, what they make.
    const hands = within(row).getAllByTestId('round-hand');
    expect(hands).toHaveLength(2);
    const [a, b] = hands;
    expect(within(a).getByText('Player A')).toBeInTheDocument();
    expect(within(a).getAllByRole('img').map((card) => card.getAttribute('aria-label'))).toEqual(['Ace of spades', 'King of diamonds', '3 of clubs']);
    expect(within(a).getByText('High card')).toBeInTheDocument();
    expect(within(b).getAllByRole('img').map((card) => card.getAttribute('aria-label'))).toEqual(['10 of hearts', '10 of diamonds', '4 of spades']);
    expect(within(b).getByText('Pair of tens')).toBeInTheDocument();
    // The winner's hand is marked; no card shows as its two-letter code.
    expect(b).toHaveClass('winner');
    expect(a).not.toHaveClass('winner');
    expect(row.textContent).not.toMatch(/\b(10|[2-9TJQKA])[SHDC]\b/);
    expect(within(row).getAllByText('Player B')).toHaveLength(2);
    expect(calls.find((c) => c.path === '/api/report/casinoResult')!.body).toMatchObject({ game_code: 'teen20', page: 1 });
  });

  it('Current Bets of type casino lists the casino bets with their game and round', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/currentBets': (call) =>
        (call.body as { type: string }).type === 'casino'
          ? {
              data: {
                rows: [
                  { bet_id: 31, round_id: 'dt1day-1795356000000', match_id: 4, game_code: 'dt6', game_name: 'Dragon Tiger 1 Day', market: 'tiger', market_name: 'Tiger', odds: '2.50', stake: 100, payout: null, status: 'open', date: '2026-11-22T14:00:10.000Z', liability: 100, profit: 150 },
                ],
                total: 1,
                page: 1,
                limit: 20,
              },
            }
          : { data: { rows: [], total: 0, page: 1, limit: 20 } },
    });
    storeSession();
    renderApp('/report/current-bet');
    const user = userEvent.setup();

    await screen.findByText('No data available in table');
    await user.selectOptions(screen.getByTestId('filter-bet-type'), 'casino');
    await waitFor(() => expect(lastBodyTo(calls, '/api/report/currentBets')).toMatchObject({ type: 'casino', status: 'matched' }));
    const row = (await screen.findByText('Dragon Tiger 1 Day')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'dt1day-1795356000000' })).toHaveAttribute('href', '#/casino/round/dt1day-1795356000000');
    expect(within(row).getByText('Tiger')).toBeInTheDocument();
    expect(within(row).getByText('2.50')).toBeInTheDocument();
    const cell = (label: string) => row.querySelector(`td[data-label="${label}"]`)?.textContent;
    expect([cell('Stake'), cell('Liability'), cell('Potential profit')]).toEqual(['₹100.00', '₹100.00', '₹150.00']);
  });
});
