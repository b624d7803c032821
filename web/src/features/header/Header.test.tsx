import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';

describe('header', () => {
  it('shows the balance with 2 decimals, the exposure as an absolute value, and My Market on a tap', async () => {
    stubServer(EMPTY_CATALOGUE);
    storeSession();
    renderApp('/');
    const user = userEvent.setup();

    await waitFor(() => expect(screen.getByTestId('balance')).toHaveTextContent('₹1,500.00'));
    expect(screen.getByTestId('exposure')).toHaveTextContent('₹20.50');
    // What may still be bet: the server's balance − exposure.
    expect(screen.getByTestId('available')).toHaveTextContent('₹1,479.50');
    expect(JSON.parse(sessionStorage.getItem('exposureBalance')!)).toMatchObject({ total_balance: 1500 });
    expect(screen.getByTestId('site-message')).toHaveTextContent('Hello bettors');

    await user.click(screen.getByTestId('exposure-button'));
    const modal = await screen.findByTestId('my-market-modal');
    expect(within(modal).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Event Type', 'Event Name', 'Match Name', 'Trade', 'Exposure']);
    expect(await within(modal).findByText('No data available in table')).toBeInTheDocument();
  });

  it('lists each market with exposure in My Market, and a row opens its match', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/bet/getExposureDetail': {
        data: {
          data: [
            {
              sport_name: 'Cricket',
              match_name: 'India v Australia',
              match_id: 5,
              market_details: [
                { sub_type: 'Match Odds', market_id: 51, bet_count: 3, exposure: 125000 },
                { sub_type: '6 over runs India', market_id: 52, bet_count: 1, exposure: 200 },
              ],
            },
          ],
        },
      },
    });
    storeSession();
    renderApp('/');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('exposure-button'));
    const rows = await screen.findAllByTestId('my-market-row');
    expect(rows.map((row) => within(row).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['Cricket', 'India v Australia', 'Match Odds', '3', '₹1,25,000.00'],
      ['Cricket', 'India v Australia', '6 over runs India', '1', '₹200.00'],
    ]);
    await user.click(rows[1]);
    expect(screen.queryByTestId('my-market-modal')).toBeNull();
    await waitFor(() => expect(calls.some((c) => c.path === '/api/match/matchDetail' && (c.body as { match_id: number }).match_id === 5)).toBe(true));
  });

  it('toggles balance and exposure per session from the user menu', async () => {
    stubServer(EMPTY_CATALOGUE);
    storeSession();
    renderApp('/');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('user-menu-toggle'));
    expect(await screen.findByTestId('available')).toBeInTheDocument();
    await user.click(screen.getByTestId('toggle-balance'));
    expect(screen.queryByTestId('balance')).toBeNull();
    // Available beside the exposure would give the hidden balance away.
    expect(screen.queryByTestId('available')).toBeNull();
    expect(sessionStorage.getItem('showBalance')).toBe('false');
    await user.click(screen.getByTestId('toggle-exposure'));
    expect(screen.queryByTestId('exposure')).toBeNull();
    await user.click(screen.getByTestId('toggle-balance'));
    expect(screen.getByTestId('balance')).toBeInTheDocument();
    // … and beside the balance it would give the hidden exposure away.
    expect(screen.queryByTestId('available')).toBeNull();
    await user.click(screen.getByTestId('toggle-exposure'));
    expect(screen.getByTestId('available')).toHaveTextContent('₹1,479.50');
  });

  it('shows the menu items and the Deposit/Withdraw link by the visibility rules', async () => {
    stubServer({ ...EMPTY_CATALOGUE, 'GET /api/globalSetting/getGlobalSetting': { data: { site_title: 'Backlay', payment_gateway: 0 } } });
    storeSession({ ...demoUser, parent_id: -1 });
    renderApp('/');

    await userEvent.click(await screen.findByTestId('user-menu-toggle'));
    const items = within(screen.getByTestId('user-menu')).getAllByRole('menuitem').map((i) => i.textContent);
    expect(items).toEqual(['Account Statement', 'Current Bet', 'Profit & Loss', 'Bet History', 'Casino Result', 'Set Button Values', 'Rules', 'Safer Gambling', 'Log-in History', 'SignOut']);
    expect(screen.getByText('Balance')).toBeInTheDocument();
    expect(screen.getByText('Exposure')).toBeInTheDocument();
    expect(screen.queryByTestId('deposit-withdraw-link')).toBeNull();
  });

  it('searches, groups by sport with IST dates, and clears and closes on a choice', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/match/searchByMatchNameHeader': {
        data: { Cricket: [{ match_id: 9, match_name: 'India v Australia', open_date: '2026-11-22T00:30:00.000Z', sport_id: 4 }] },
      },
    });
    storeSession();
    renderApp('/');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('search-toggle'));
    await user.type(screen.getByTestId('search-input'), 'india');
    const group = await screen.findByTestId('search-group');
    expect(group).toHaveTextContent('Cricket');
    expect(group).toHaveTextContent('India v Australia');
    expect(group).toHaveTextContent('22/11/2026 06:00:00');
    expect(calls.find((c) => c.path.endsWith('searchByMatchNameHeader'))?.body).toEqual({ search: 'india' });

    // Emptying the box clears the results.
    await user.clear(screen.getByTestId('search-input'));
    expect(screen.queryByTestId('search-results')).toBeNull();

    await user.type(screen.getByTestId('search-input'), 'india');
    await user.click(await screen.findByTestId('search-result'));
    expect(window.location.hash).toBe('#/game-details/4/9');
    expect(screen.queryByTestId('search-input')).toBeNull();
    expect(screen.queryByTestId('search-results')).toBeNull();
  });

  it('toggling the search closed clears it', async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/match/searchByMatchNameHeader': { data: { Cricket: [{ match_id: 9, match_name: 'India v Australia', open_date: '2026-11-22T00:30:00.000Z', sport_id: 4 }] } },
    });
    storeSession();
    renderApp('/');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('search-toggle'));
    await user.type(screen.getByTestId('search-input'), 'india');
    await screen.findByTestId('search-group');
    await user.click(screen.getByTestId('search-toggle'));
    expect(screen.queryByTestId('search-results')).toBeNull();
    await user.click(screen.getByTestId('search-toggle'));
    expect(screen.getByTestId('search-input')).toHaveValue('');
    expect(screen.queryByTestId('search-results')).toBeNull();
  });

  it('finds casino games by name, and closes the results on an outside click and on navigation', async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/match/searchByMatchNameHeader': { data: { Cricket: [{ match_id: 9, match_name: 'Teen Patti Tigers v Lions', open_date: '2026-11-22T00:30:00.000Z', sport_id: 4 }] } },
      'POST /api/casino/getCasinoList': {
        data: [
          { match_id: 31, game_code: 'teen20', name: 'TP T20' },
          { match_id: 32, game_code: 'dt6', name: 'Dragon Tiger' },
          { match_id: 33, game_code: 'teen', name: 'TP 1 Day' },
        ],
      },
    });
    storeSession();
    renderApp('/');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('search-toggle'));
    await user.type(screen.getByTestId('search-input'), 'tp');
    const casinoGroup = async () => {
      await waitFor(() => expect(screen.getAllByTestId('search-group').map((g) => g.querySelector('h3')?.textContent)).toContain('Casino'));
      return screen.getAllByTestId('search-group').find((g) => g.querySelector('h3')?.textContent === 'Casino')!;
    };
    const group = await casinoGroup();
    expect(within(group).getAllByTestId('search-result').map((r) => r.textContent)).toEqual(['TP T20', 'TP 1 Day']);

    // A click outside closes the results; the text stays and a click in the box shows them again.
    await user.click(screen.getByTestId('site-message'));
    expect(screen.queryByTestId('search-results')).toBeNull();
    expect(screen.getByTestId('search-input')).toHaveValue('tp');
    await user.click(screen.getByTestId('search-input'));
    await screen.findByTestId('search-results');

    // Navigating elsewhere closes them too.
    window.location.hash = '#/report/account-statement';
    await waitFor(() => expect(screen.queryByTestId('search-results')).toBeNull());

    await user.click(screen.getByTestId('search-input'));
    await user.click(within(await casinoGroup()).getByText('TP T20'));
    expect(window.location.hash).toBe('#/casino/match/31');
    expect(screen.queryByTestId('search-input')).toBeNull();
  });
});
