import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';

const agent = { ...demoUser, user_id: 2, user_name: 'agent', role: 'agent' as const, parent_id: 1 };
const admin = { ...demoUser, user_id: 1, user_name: 'admin', role: 'admin' as const, parent_id: -1 };

const saved = {
  payee: 'agent',
  upi_id: 'agent.pay@okaxis',
  upi_name: 'Agent Pay',
  upi_uri: 'upi://pay?pa=agent.pay@okaxis&pn=Agent%20Pay&cu=INR',
  bank: null,
  updated_at: '2026-11-22T08:30:00.000Z',
};

describe('payment details in the console', () => {
  it("checks an agent's own details before sending, sends them as typed, and shows what is saved", async () => {
    let stored: typeof saved | null = null;
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/admin/payment/details': () => ({ data: stored }),
      'POST /api/admin/payment/details': () => {
        stored = saved;
        return { message: 'Payment details saved: your clients see them on their deposit page.', data: saved };
      },
    });
    storeSession(agent);
    renderApp('/console/payments/details');
    const user = userEvent.setup();
    expect(await screen.findByTestId('payment-details-none')).toBeInTheDocument();
    const form = screen.getByTestId('payment-details-form');
    await user.click(within(form).getByTestId('details-save'));
    expect(await within(form).findByText('Give a UPI id, or the bank account (name, number, IFSC, bank), or both.')).toBeInTheDocument();
    await user.type(within(form).getByTestId('details-upi-id'), 'no-at-sign');
    await user.type(within(form).getByTestId('details-ifsc'), 'SBIN1234');
    await user.click(within(form).getByTestId('details-save'));
    expect(await within(form).findByText('Enter a UPI id such as name@okaxis.')).toBeInTheDocument();
    expect(within(form).getByText('Enter a valid IFSC code, e.g. SBIN0001234.')).toBeInTheDocument();
    expect(within(form).getAllByText('Give all four bank fields, or none of them.')).toHaveLength(3);
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/payment/details')).toBe(false);

    await user.clear(within(form).getByTestId('details-upi-id'));
    await user.type(within(form).getByTestId('details-upi-id'), 'agent.pay@okaxis');
    await user.type(within(form).getByTestId('details-upi-name'), 'Agent Pay');
    await user.clear(within(form).getByTestId('details-ifsc'));
    await user.click(within(form).getByTestId('details-save'));
    expect(await screen.findByTestId('payment-details-updated')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/admin/payment/details')?.body).toEqual({
      upi_id: 'agent.pay@okaxis',
      upi_name: 'Agent Pay',
      account_name: '',
      account_number: '',
      ifsc: '',
      bank_name: '',
    });
    // The form starts from what was saved.
    expect(screen.getByTestId('details-upi-id')).toHaveValue('agent.pay@okaxis');
  });

  it("lets an admin set an agent's details, with the server's refusal next to its field", async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/console/account/paymentDetails': { data: null },
      'POST /api/console/account/summary': {
        data: { account: { user_id: 5, user_name: 'boss', role: 'agent' }, trail: [{ user_id: 1, user_name: 'admin' }, { user_id: 5, user_name: 'boss' }] },
      },
      'POST /api/admin/payment/details': {
        httpStatus: 400,
        message: 'Check the fields.',
        data: { errors: { account_number: 'Account number must be 6 to 20 digits.' } },
      },
    });
    storeSession(admin);
    renderApp('/console/payments/details?user=5');
    const user = userEvent.setup();
    expect(await screen.findByText('Payment details of boss')).toBeInTheDocument();
    await waitFor(() => expect(calls.find((c) => c.path === '/api/console/account/paymentDetails')?.body).toEqual({ user_id: 5 }));
    const form = await screen.findByTestId('payment-details-form');
    await user.type(within(form).getByTestId('details-account-name'), 'Boss Traders');
    await user.type(within(form).getByTestId('details-account-number'), '12345678');
    await user.type(within(form).getByTestId('details-ifsc'), 'sbin0001234');
    await user.type(within(form).getByTestId('details-bank-name'), 'SBI');
    await user.click(within(form).getByTestId('details-save'));
    const field = within(form).getByTestId('details-account-number').closest('label')!;
    expect(await within(field).findByText('Account number must be 6 to 20 digits.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/admin/payment/details')?.body).toMatchObject({ user_id: 5, account_name: 'Boss Traders' });
  });
});
