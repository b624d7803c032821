import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';

const BUTTONS = JSON.stringify([
  { button_name: '100', button_value: 100, type: 'Game' },
  { button_name: '1k', button_value: 1000, type: 'Game' },
  { button_name: '25', button_value: 25, type: 'Casino' },
]);

describe('change password', () => {
  it("shows its own field errors before sending and the server's after", async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/user/changePassword': {
        httpStatus: 400,
        message: 'Check the fields.',
        data: { errors: { master_password: 'Current password is incorrect.' } },
      },
    });
    storeSession({ ...demoUser, is_change_password: 1 });
    renderApp('/setting/change-password');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('cp-submit'));
    expect(await screen.findByText('Current password is required.')).toBeInTheDocument();
    expect(screen.getByText('New password is required.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/user/changePassword')).toBe(false);

    await user.type(screen.getByTestId('cp-master-password'), 'Wrong@123');
    await user.type(screen.getByTestId('cp-new-password'), 'Better@123');
    await user.type(screen.getByTestId('cp-confirm-password'), 'Better@124');
    await user.click(screen.getByTestId('cp-submit'));
    expect(await screen.findByText('New password and confirm password must be matching.')).toBeInTheDocument();

    await user.clear(screen.getByTestId('cp-confirm-password'));
    await user.type(screen.getByTestId('cp-confirm-password'), 'Better@123');
    await user.click(screen.getByTestId('cp-submit'));
    expect(await screen.findByText('Current password is incorrect.')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/user/changePassword')?.body).toEqual({
      master_password: 'Wrong@123',
      new_password: 'Better@123',
      confirm_password: 'Better@123',
    });
  });

  it('after a forced change, clears the flag and goes home', async () => {
    stubServer({ ...EMPTY_CATALOGUE, 'POST /api/user/changePassword': { message: 'Password changed.' } });
    storeSession({ ...demoUser, is_change_password: 1 });
    renderApp('/setting/change-password');
    const user = userEvent.setup();

    await user.type(await screen.findByTestId('cp-master-password'), 'Given@123');
    await user.type(screen.getByTestId('cp-new-password'), 'Better@123');
    await user.type(screen.getByTestId('cp-confirm-password'), 'Better@123');
    await user.click(screen.getByTestId('cp-submit'));

    expect(await screen.findByTestId('home-page')).toBeInTheDocument();
    expect((JSON.parse(localStorage.getItem('userinfo')!) as { is_change_password: number }).is_change_password).toBe(0);
  });
});

describe('set button values', () => {
  it('shows the Game and Casino tabs, saves both lists, toasts the message and closes', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/getButtonValue': { data: BUTTONS },
      'POST /api/user/setButtonValue': { message: 'Button values saved.' },
    });
    storeSession();
    renderApp('/');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('user-menu-toggle'));
    await user.click(screen.getByTestId('menu-button-values'));
    const modal = await screen.findByTestId('button-values-modal');
    await within(modal).findAllByTestId('button-value-row');
    expect(within(modal).getAllByTestId('button-label').map((i) => (i as HTMLInputElement).value)).toEqual(['100', '1k']);

    await user.click(within(modal).getByTestId('button-tab-casino'));
    expect(within(modal).getAllByTestId('button-label').map((i) => (i as HTMLInputElement).value)).toEqual(['25']);
    const value = within(modal).getByTestId('button-value');
    await user.clear(value);
    await user.type(value, '0');
    await user.click(within(modal).getByTestId('button-values-update'));
    expect(await within(modal).findByText('Value must be more than 0.')).toBeInTheDocument();

    await user.clear(value);
    await user.type(value, '40');
    await user.click(within(modal).getByTestId('button-values-update'));

    expect(await screen.findByText('Button values saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('button-values-modal')).toBeNull());
    expect(calls.find((c) => c.path === '/api/user/setButtonValue')?.body).toEqual([
      { button_name: '100', button_value: 100, type: 'Game' },
      { button_name: '1k', button_value: 1000, type: 'Game' },
      { button_name: '25', button_value: 40, type: 'Casino' },
    ]);
  });

  it("toasts the server's message when saving fails and stays open", async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/getButtonValue': { data: BUTTONS },
      'POST /api/user/setButtonValue': { httpStatus: 400, message: 'Check the buttons.', data: { errors: { '[1].button_name': 'Label must be at most 10 characters.' } } },
    });
    storeSession();
    renderApp('/setting/button-values');
    const user = userEvent.setup();

    await user.click(await screen.findByTestId('button-values-update'));
    expect(await screen.findAllByText('Check the buttons.')).not.toHaveLength(0);
    expect(screen.getByText('Label must be at most 10 characters.')).toBeInTheDocument();
  });
});

describe('deposit and withdraw', () => {
  it('shows a refused request in words (422) and keeps the user logged in', async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/payment/details': { data: null },
      'POST /api/payment/deposit': { httpStatus: 422, message: 'Deposits and withdrawals are turned off on this site.' },
    });
    storeSession();
    renderApp('/setting/d-w');
    const user = userEvent.setup();

    await user.type(await screen.findByTestId('dw-amount'), '500');
    await user.type(screen.getByTestId('dw-reference'), 'UTR-123456');
    await user.click(screen.getByTestId('dw-submit'));

    const form = screen.getByTestId('deposit-form');
    expect(await within(form).findByText('Deposits and withdrawals are turned off on this site.')).toBeInTheDocument();
    expect(window.location.hash).toBe('#/setting/d-w');
    expect(localStorage.getItem('usertoken')).toBe(demoUser.token);
  });

  it('says how much more the bettor’s deposit limit lets them deposit, and words a request past it', async () => {
    let left = 2000;
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/payment/details': { data: null },
      'GET /api/user/limits': () => ({ data: { limits: [{ kind: 'deposit', period: 'week', value: 5000 }], pending: [], left: [{ kind: 'deposit', period: 'week', value: left }], operator_max_stake: null } }),
      'POST /api/payment/deposit': (call) => {
        if ((call.body as { amount: number }).amount > left) {
          return { httpStatus: 422, message: 'Deposit limit.', data: { refusal: { refusal: 'deposit_limit', left_minor: left * 100, period: 'week', limit_minor: 5_000_00 } } };
        }
        left -= (call.body as { amount: number }).amount;
        return { message: 'Deposit request sent.', data: { request_id: 1, status: 'pending' } };
      },
    });
    storeSession();
    renderApp('/setting/d-w');
    const user = userEvent.setup();

    const form = await screen.findByTestId('deposit-form');
    expect(await within(form).findByTestId('limit-left-deposit')).toHaveTextContent('You can deposit ₹2,000.00 more this week.');
    await user.type(within(form).getByTestId('dw-amount'), '2500');
    await user.type(within(form).getByTestId('dw-reference'), 'UTR-123456');
    await user.click(within(form).getByTestId('dw-submit'));
    expect(await within(form).findByText('This request would go past your weekly deposit limit of ₹5,000.00: you can deposit ₹2,000.00 more this week.')).toBeInTheDocument();

    await user.clear(within(form).getByTestId('dw-amount'));
    await user.type(within(form).getByTestId('dw-amount'), '500');
    await user.click(within(form).getByTestId('dw-submit'));
    // The request counts at once: what is left is read again.
    expect(await within(form).findByText('You can deposit ₹1,500.00 more this week.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/payment/deposit')).toHaveLength(2);
  });

  it('says a negative or zero amount must be more than 0, before any format rule, and sends nothing', async () => {
    const calls = stubServer({ ...EMPTY_CATALOGUE, 'GET /api/payment/details': { data: null } });
    storeSession();
    renderApp('/setting/d-w');
    const user = userEvent.setup();

    const form = await screen.findByTestId('deposit-form');
    await user.type(within(form).getByTestId('dw-reference'), 'UTR-123456');
    for (const [typed, message] of [
      ['-500', 'Amount must be more than 0.'],
      ['-0.50', 'Amount must be more than 0.'],
      ['0', 'Amount must be more than 0.'],
      ['12.345', 'Amount must be a number with at most 2 decimals.'],
      ['abc', 'Amount must be a number with at most 2 decimals.'],
      ['50', 'The smallest amount is 100.'],
    ]) {
      await user.clear(within(form).getByTestId('dw-amount'));
      await user.type(within(form).getByTestId('dw-amount'), typed);
      await user.click(within(form).getByTestId('dw-submit'));
      expect(await within(form).findByText(message)).toBeInTheDocument();
    }
    expect(calls.some((c) => c.path === '/api/payment/deposit')).toBe(false);
  });

  it("shows where to pay: the agent's UPI id with a QR code of its upi link, and the bank account", async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/payment/details': {
        data: {
          payee: 'agent',
          upi_id: 'agent.one@ybl',
          upi_name: 'Agent One',
          upi_uri: 'upi://pay?pa=agent.one@ybl&pn=Agent%20One&cu=INR',
          bank: { account_name: 'Agent One', account_number: '50100012345678', ifsc: 'HDFC0001234', bank_name: 'HDFC Bank' },
          updated_at: '2026-11-24T10:00:00.000Z',
        },
      },
    });
    storeSession();
    renderApp('/setting/d-w');

    expect(await screen.findByTestId('deposit-upi-id')).toHaveTextContent('agent.one@ybl');
    expect(screen.getByTestId('deposit-qr').querySelector('svg')).not.toBeNull();
    expect(screen.getByTestId('deposit-account-number')).toHaveTextContent('50100012345678');
    expect(screen.getByTestId('deposit-bank')).toHaveTextContent('HDFC0001234');
  });

  it('says to ask the agent when nobody set payment details, and shows a failed look-up in its words', async () => {
    stubServer({ ...EMPTY_CATALOGUE, 'GET /api/payment/details': { data: null } });
    storeSession();
    const { unmount } = renderApp('/setting/d-w');
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('Your agent has not set payment details yet');
    expect(screen.queryByTestId('deposit-qr')).toBeNull();
    unmount();

    stubServer({ ...EMPTY_CATALOGUE, 'GET /api/payment/details': { httpStatus: 404, message: 'There is no API call GET /api/payment/details.' } });
    renderApp('/setting/d-w');
    expect(await screen.findByTestId('error-message')).toHaveTextContent('There is no API call GET /api/payment/details.');
  });

  it('fills the withdraw form with the saved bank account and sends it', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/payment/details': { data: null },
      'GET /api/payment/bankAccount': { data: { account_holder: 'Ravi Kumar', bank_name: 'HDFC Bank', account_number: '50100012345678', ifsc: 'HDFC0001234' } },
      'POST /api/payment/withdraw': { message: 'Withdraw request of 150.00 sent.', data: { request_id: 3, status: 'pending' } },
    });
    storeSession();
    renderApp('/setting/d-w');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('withdraw-tab'));

    await waitFor(() => expect(screen.getByTestId('wd-account-number')).toHaveValue('50100012345678'));
    expect(screen.getByTestId('wd-account-holder')).toHaveValue('Ravi Kumar');
    expect(screen.getByTestId('wd-ifsc')).toHaveValue('HDFC0001234');
    await user.type(screen.getByTestId('wd-amount'), '150');
    await user.click(screen.getByTestId('wd-submit'));

    await waitFor(() => expect(calls.some((c) => c.path === '/api/payment/withdraw')).toBe(true));
    const sent = calls.find((c) => c.path === '/api/payment/withdraw');
    expect(sent?.body).toEqual({ amount: 150, account_holder: 'Ravi Kumar', bank_name: 'HDFC Bank', account_number: '50100012345678', ifsc: 'HDFC0001234' });
    await waitFor(() => expect(screen.getByTestId('wd-amount')).toHaveValue(''));
    expect(screen.getByTestId('wd-account-number')).toHaveValue('50100012345678');
  });
});
