import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../i18n';
import { EMPTY_CATALOGUE, stubServer } from '../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../testing/render';

// Screens of the app's own areas in Hindi: the words come from the Hindi catalogue, and the
// English ones are gone (a string left out of the catalogue would still read in English).
describe('the app in Hindi', () => {
  it('shows a report in Hindi: title, columns, a side, the paging line; money stays in the Indian format', async () => {
    setLanguage('hi');
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/accountStatement': {
        data: {
          rows: [{ date: '2026-11-22T15:00:00.000Z', description: 'India v Australia / Match Odds: won', credit: 56, debit: 0, balance: 100056, remark: '', kind: 'settlement', market_id: 51 }],
          total: 1,
          page: 1,
          limit: 20,
        },
      },
      'POST /api/report/settledBets': {
        data: [
          {
            bet_id: 1, market_id: 51, market_name: 'Match Odds', market_type: 'match_odds', selection_id: 11, selection_name: 'India', side: 'back',
            price: 3.75, avg_price_matched: 3.8, line: null, status: 'settled', stake: 20, matched: 20, pnl: 56, date: '2026-11-22T14:00:00.000Z',
          },
        ],
      },
    });
    storeSession();
    renderApp('/report/account-statement');
    const user = userEvent.setup();
    const page = await screen.findByTestId('account-statement-page');
    const table = await within(page).findByTestId('report-table');
    expect(await within(table).findByText('₹1,00,056.00')).toBeInTheDocument();
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent('खाता विवरण');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['तारीख', 'विवरण', 'जमा', 'नामे', 'बैलेंस', 'टिप्पणी']);
    expect(within(page).getByText('1 में से 1 से 1 तक दिखाए जा रहे हैं')).toBeInTheDocument();
    expect(within(page).getByTestId('filter-submit')).toHaveTextContent('सबमिट करें');
    expect(within(page).getByTestId('download-csv')).toHaveTextContent('CSV डाउनलोड करें');
    for (const english of ['Account Statement', 'Description', 'Balance', 'Submit', 'Download CSV', 'From', 'Previous', 'Next']) {
      expect(within(page).queryByText(english)).toBeNull();
    }

    await user.click(within(table).getByTestId('statement-bets-link'));
    const modal = await screen.findByTestId('settled-bets-modal');
    const row = await within(modal).findByTestId('settled-bet');
    expect(within(row).getAllByRole('cell')[1]).toHaveTextContent('बैक');
    expect(within(modal).getByTestId('modal-close')).toHaveAttribute('aria-label', 'बंद करें');
    expect(within(modal).queryByText('Selection')).toBeNull();
  });

  it('checks a form in Hindi: the change-password messages are made in the language shown', async () => {
    setLanguage('hi');
    stubServer(EMPTY_CATALOGUE);
    storeSession({ ...demoUser, is_change_password: 1 });
    renderApp('/setting/change-password');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('cp-submit'));
    expect(await screen.findByText('मौजूदा पासवर्ड ज़रूरी है।')).toBeInTheDocument();
    expect(screen.getByText('नया पासवर्ड ज़रूरी है।')).toBeInTheDocument();
    expect(screen.queryByText('Current password is required.')).toBeNull();
    expect(screen.getByTestId('forced-change-notice')).toHaveTextContent('आपका पासवर्ड आपके एजेंट ने सेट किया था');
    await user.type(screen.getByTestId('cp-new-password'), 'short1');
    await user.click(screen.getByTestId('cp-submit'));
    expect(await screen.findByText('पासवर्ड कम से कम 8 अक्षरों का होना चाहिए।')).toBeInTheDocument();
    expect(screen.queryByText(/Password must be/)).toBeNull();
  });

  it('shows the sign-up page in Hindi, country names included', async () => {
    setLanguage('hi');
    stubServer(EMPTY_CATALOGUE);
    renderApp('/sign-up');
    const user = userEvent.setup();
    const form = await screen.findByTestId('signup-form');
    expect(within(form).getByTestId('signup-submit')).toHaveTextContent('साइन अप');
    expect(within(form).getByTestId('signup-mobile')).toHaveAttribute('placeholder', 'मोबाइल नंबर');
    // India's name as Hindi writes it, from the browser's own region names.
    expect(within(form).getByTestId('signup-country')).toHaveTextContent('भारत');
    await user.type(within(form).getByTestId('signup-mobile'), '987654321');
    await user.click(within(form).getByTestId('signup-submit'));
    expect(await within(form).findByText('भारत में मोबाइल नंबर 10 अंकों का होता है।')).toBeInTheDocument();
    expect(within(form).queryByText(/Sign Up|Mobile number|Username/)).toBeNull();
  });

  it("keeps the operator's console in English, its shared parts too, while the bettor's app is in Hindi", async () => {
    setLanguage('hi');
    stubServer({ ...EMPTY_CATALOGUE, 'POST /api/admin/audit': { data: { rows: [], total: 0, page: 1, limit: 50 } } });
    storeSession({ ...demoUser, user_id: 1, user_name: 'admin', role: 'admin', parent_id: -1 });
    renderApp('/console/audit');
    const page = await screen.findByTestId('audit-page');
    expect(within(page).getByTestId('download-csv')).toHaveTextContent('Download CSV');
    expect(within(page).queryByText('CSV डाउनलोड करें')).toBeNull();
  });
});
