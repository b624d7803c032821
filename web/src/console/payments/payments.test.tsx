import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Answers, type Call } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';

const agent = { ...demoUser, user_id: 2, user_name: 'agent', role: 'agent' as const, parent_id: 1 };

const deposit = {
  request_id: 11,
  user_id: 9,
  user_name: 'ravi',
  type: 'deposit',
  amount: 2500,
  reference: 'UTR123456789',
  account_holder: null,
  account_number: null,
  bank_name: null,
  ifsc: null,
  status: 'pending',
  remark: '',
  date: '2026-11-22T08:30:00.000Z',
  decided_at: null,
  decided_by: null,
  transaction_id: null,
};
const withdrawal = {
  ...deposit,
  request_id: 12,
  user_name: 'meera',
  type: 'withdraw',
  amount: 1200.5,
  reference: null,
  account_holder: 'Meera Shah',
  account_number: '001122334455',
  bank_name: 'HDFC Bank',
  ifsc: 'HDFC0000123',
};
const approved = { ...deposit, request_id: 10, status: 'approved', remark: 'UTR seen', decided_at: '2026-11-21T10:00:00.000Z' };
const page = (rows: unknown[]) => ({ data: { rows, total: rows.length, page: 1, limit: 25 } });

function renderPayments(answers: Answers) {
  const calls = stubServer({ ...EMPTY_CATALOGUE, ...answers });
  storeSession(agent);
  renderApp('/console/payments');
  return calls;
}

const listCalls = (calls: Call[]) => calls.filter((c) => c.path === '/api/admin/payment/list').map((c) => c.body);

describe('the payments screen', () => {
  it('lists the pending requests with what to check, and filters by status on the server', async () => {
    const calls = renderPayments({
      'POST /api/admin/payment/list': (call) => ((call.body as { status?: string }).status === 'approved' ? page([approved]) : page([deposit, withdrawal])),
    });
    const rows = await screen.findAllByTestId('payment-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('ravi')).toBeInTheDocument();
    expect(within(rows[0]).getByText('Deposit')).toBeInTheDocument();
    expect(within(rows[0]).getByText('₹2,500.00')).toBeInTheDocument();
    expect(within(rows[0]).getByText('UTR123456789')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Withdraw')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Meera Shah, HDFC Bank, 001122334455, IFSC HDFC0000123')).toBeInTheDocument();
    expect(within(rows[1]).getByTestId('payment-approve')).toBeInTheDocument();
    expect(listCalls(calls)).toEqual([{ status: 'pending', page: 1, limit: 25 }]);

    await userEvent.setup().click(screen.getByTestId('payments-filter-approved'));
    await waitFor(() => expect(screen.getAllByTestId('payment-row')).toHaveLength(1));
    const row = screen.getByTestId('payment-row');
    expect(within(row).getByText('UTR seen')).toBeInTheDocument();
    expect(within(row).queryByTestId('payment-approve')).not.toBeInTheDocument();
    expect(listCalls(calls).at(-1)).toEqual({ status: 'approved', page: 1, limit: 25 });
  });

  it('approves a deposit, saying what moves, and lists the requests again', async () => {
    let decided = false;
    const calls = renderPayments({
      'POST /api/admin/payment/list': () => page(decided ? [] : [deposit]),
      'POST /api/admin/payment/approve': () => {
        decided = true;
        return { message: 'Deposit of ₹2,500.00 approved.', data: { request_id: 11, status: 'approved', transaction_id: 77, parent_balance: 1000, user_balance: 2500 } };
      },
      'POST /api/console/downline/list': page([]),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('payment-approve'));
    const dialog = screen.getByTestId('payment-decision-dialog');
    expect(within(dialog).getByText(/₹2,500\.00 goes from the parent's balance to ravi/)).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('decision-remark'), ' UTR matched ');
    await user.click(within(dialog).getByTestId('decision-submit'));
    await waitFor(() => expect(screen.queryByTestId('payment-decision-dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/admin/payment/approve')?.body).toEqual({ request_id: 11, remark: 'UTR matched' });
    expect(await screen.findByText('No pending requests.')).toBeInTheDocument();
  });

  it('rejects only with a remark for the user', async () => {
    const calls = renderPayments({
      'POST /api/admin/payment/list': page([withdrawal]),
      'POST /api/admin/payment/reject': { message: 'Withdrawal rejected.', data: { request_id: 12, status: 'rejected' } },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('payment-reject'));
    const dialog = screen.getByTestId('payment-decision-dialog');
    expect(within(dialog).getByText(/meera sees the request rejected with your remark; no chips move/)).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('decision-submit'));
    expect(await within(dialog).findByText('Say why, for the user.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/admin/payment/reject')).toBe(false);

    await user.type(within(dialog).getByTestId('decision-remark'), 'Account name does not match');
    await user.click(within(dialog).getByTestId('decision-submit'));
    await waitFor(() => expect(screen.queryByTestId('payment-decision-dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/admin/payment/reject')?.body).toEqual({ request_id: 12, remark: 'Account name does not match' });
  });

  it("shows the server's refusal in the dialog and keeps it open", async () => {
    renderPayments({
      'POST /api/admin/payment/list': page([deposit]),
      'POST /api/admin/payment/approve': { httpStatus: 422, message: 'Your balance of ₹1,000.00 does not cover this deposit of ₹2,500.00.' },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('payment-approve'));
    const dialog = screen.getByTestId('payment-decision-dialog');
    await user.click(within(dialog).getByTestId('decision-submit'));
    expect(await within(dialog).findByText('Your balance of ₹1,000.00 does not cover this deposit of ₹2,500.00.')).toBeInTheDocument();
    expect(screen.getByTestId('payment-decision-dialog')).toBeInTheDocument();
    expect(screen.getAllByTestId('payment-row')).toHaveLength(1);
  });

  it('says when there is nothing to decide', async () => {
    renderPayments({ 'POST /api/admin/payment/list': page([]) });
    expect(await screen.findByText('No pending requests.')).toBeInTheDocument();
  });
});
