import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Answers, type Call } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';
import { FIGURES_REFRESH_MS } from './api';

const admin = { ...demoUser, user_id: 1, user_name: 'admin', role: 'admin' as const, parent_id: -1 };

const step = (user_id: number, user_name: string) => ({ user_id, user_name });
const row = (fields: Record<string, unknown>) => ({
  user_id: 9,
  user_name: 'ravi',
  role: 'client',
  parent_id: 1,
  partnership: 0,
  balance: 1500,
  exposure: 200,
  available: 1300,
  branch_balance: 1500,
  branch_exposure: 200,
  branch_available: 1300,
  pnl: 0,
  credit_reference: 0,
  max_stake: null,
  max_exposure: null,
  status: 'active',
  last_login: null,
  children: 0,
  path: [step(9, 'ravi')],
  ...fields,
});
/** boss (70%) keeps 400.00; its branch holds 950.00 with 20.00 held. */
const boss = row({
  user_id: 5,
  user_name: 'boss',
  role: 'agent',
  partnership: 70,
  balance: 400,
  exposure: 0,
  available: 400,
  branch_balance: 950,
  branch_exposure: 20,
  branch_available: 930,
  pnl: -50,
  children: 1,
  path: [step(5, 'boss')],
});
const page = (rows: unknown[]) => ({ data: { rows, total: rows.length, page: 1, limit: 25 } });
const listCalls = (calls: Call[]) => calls.filter((c) => c.path === '/api/console/downline/list');

const BASE: Answers = {
  ...EMPTY_CATALOGUE,
  'POST /api/console/account/summary': (call) => {
    const id = (call.body as { user_id: number }).user_id;
    return { data: { account: id === 5 ? boss : row({ user_id: id }), trail: id === 5 ? [step(1, 'admin'), step(5, 'boss')] : [step(1, 'admin')] } };
  },
};

afterEach(() => {
  vi.useRealTimers();
});

describe('the downline tree', () => {
  it("drills down by address, so that Back walks up and the place can be shared", async () => {
    const calls = stubServer({
      ...BASE,
      'POST /api/console/downline/list': (call) =>
        (call.body as { parent_id?: number }).parent_id === 5 ? page([row({ path: [step(9, 'ravi')] })]) : page([boss]),
    });
    storeSession(admin);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('downline-open'));
    expect(window.location.hash).toBe('#/console/downline?under=5');
    expect(await screen.findByText('ravi')).toBeInTheDocument();
    // The list is read for the place in the address (on a slow machine the read may follow the
    // rows shown from the cache, so it is waited for).
    await waitFor(() => expect(listCalls(calls).at(-1)?.body).toMatchObject({ parent_id: 5 }));
    expect(screen.getByTestId('downline-trail')).toHaveTextContent(/^admin\s*boss$/);

    window.history.back();
    await waitFor(() => expect(window.location.hash).toBe('#/console/downline'));
    // The trail (which names boss too) goes at the top, before the row is looked for: else the
    // trail's name could be found the moment before that render removes it.
    await waitFor(() => expect(screen.queryByTestId('downline-trail')).not.toBeInTheDocument());
    expect(await screen.findByText('boss')).toBeInTheDocument();
    await waitFor(() => expect(listCalls(calls).at(-1)?.body).not.toHaveProperty('parent_id'));
  });

  it('opens a shared address at its place, the trail named by the server', async () => {
    const calls = stubServer({ ...BASE, 'POST /api/console/downline/list': page([row({})]) });
    storeSession(admin);
    renderApp('/console/downline?under=5');
    expect(await screen.findByText('ravi')).toBeInTheDocument();
    expect(await screen.findByTestId('downline-trail')).toHaveTextContent(/^admin\s*boss$/);
    expect(listCalls(calls)[0]?.body).toMatchObject({ parent_id: 5 });
    // The agent drilled into: its branch's figures above its accounts.
    expect(screen.getByTestId('figures-branch-balance')).toHaveTextContent('₹950.00');
  });

  it('searches every level below and shows where each hit sits', async () => {
    const deep = row({ user_id: 12, user_name: 'deep_one', path: [step(5, 'boss'), step(7, 'sub'), step(12, 'deep_one')] });
    const calls = stubServer({
      ...BASE,
      'POST /api/console/downline/list': (call) => ((call.body as { search?: string }).search === 'deep' ? page([deep]) : page([boss])),
    });
    storeSession(admin);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('downline-search'), 'deep');
    await user.click(screen.getByTestId('downline-search-submit'));
    expect(await screen.findByTestId('downline-path')).toHaveTextContent('admin › boss › sub › deep_one');
    expect(window.location.hash).toBe('#/console/downline?q=deep');
    expect(listCalls(calls).at(-1)?.body).toMatchObject({ search: 'deep' });
  });

  it("shows an agent row's branch totals, its own chips and its share, and whose side the P&L is", async () => {
    stubServer({ ...BASE, 'POST /api/console/downline/list': page([boss]) });
    storeSession(admin);
    renderApp('/console/downline');
    const agentRow = await screen.findByTestId('downline-row');
    expect(within(agentRow).getByTestId('downline-balance')).toHaveTextContent('₹950.00');
    expect(within(agentRow).getByTestId('downline-own-balance')).toHaveTextContent('own ₹400.00');
    expect(within(agentRow).getByTestId('downline-exposure')).toHaveTextContent('₹20.00');
    expect(within(agentRow).getByTestId('downline-available')).toHaveTextContent('₹930.00');
    expect(within(agentRow).getByTestId('downline-share')).toHaveTextContent('70%');
    expect(screen.getByTestId('downline-sort-pnl')).toHaveTextContent('P&L (their side: + they won)');
  });
});

describe('fresh figures', () => {
  it('reads the list again after an action, and the open Terms dialog shows the exposure as it moves', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let exposure = 200;
    const calls = stubServer({
      ...BASE,
      'POST /api/console/downline/list': () => page([row({ exposure, available: 1500 - exposure, branch_exposure: exposure, branch_available: 1500 - exposure })]),
      'POST /api/admin/user/lock': { message: 'ravi is locked.', data: {} },
    });
    storeSession(admin);
    renderApp('/console/downline');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByTestId('row-lock'));
    const before = listCalls(calls).length;
    await user.click(screen.getByTestId('lock-confirm'));
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(before));

    await user.click(screen.getByTestId('row-terms'));
    const dialog = screen.getByTestId('terms-dialog');
    expect(within(dialog).getByTestId('figures-exposure')).toHaveTextContent('₹200.00');
    // A bet elsewhere: the next read, at most 5 s later, reaches the open dialog.
    exposure = 350;
    const polled = listCalls(calls).length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(FIGURES_REFRESH_MS);
    });
    expect(listCalls(calls).length).toBeGreaterThan(polled);
    await waitFor(() => expect(within(dialog).getByTestId('figures-exposure')).toHaveTextContent('₹350.00'));
  });
});

describe('bulk actions', () => {
  const sita = row({ user_id: 10, user_name: 'sita', status: 'locked', path: [step(10, 'sita')] });

  it('lists what will happen to each selected account, then what did', async () => {
    const calls = stubServer({
      ...BASE,
      'POST /api/console/downline/list': page([row({}), sita]),
      'POST /api/console/downline/bulk': {
        message: '1 of 2 done; 1 not done.',
        data: {
          done: 1,
          failed: 1,
          results: [
            { user_id: 9, ok: true, message: 'ravi is locked.' },
            { user_id: 10, ok: false, message: 'No such account in your downline.' },
          ],
        },
      },
    });
    storeSession(admin);
    renderApp('/console/downline');
    const user = userEvent.setup();
    const checks = await screen.findAllByTestId('downline-select');
    await user.click(checks[0]);
    await user.click(checks[1]);
    expect(screen.getByTestId('bulk-count')).toHaveTextContent('2 selected');
    await user.click(screen.getByTestId('bulk-lock'));
    const dialog = screen.getByTestId('bulk-dialog');
    const plan = within(dialog).getAllByTestId('bulk-plan-row').map((li) => li.textContent);
    expect(plan).toEqual(['ravi: logged out at once; cannot log in until unlocked', 'sita: already locked: stays locked']);
    expect(calls.some((c) => c.path === '/api/console/downline/bulk')).toBe(false);

    const before = listCalls(calls).length;
    await user.click(within(dialog).getByTestId('bulk-confirm'));
    expect(await within(dialog).findByTestId('bulk-summary')).toHaveTextContent('1 done, 1 not done:');
    const results = within(dialog).getAllByTestId('bulk-result');
    expect(results[1]).toHaveTextContent('sita: not done: No such account in your downline.');
    expect(calls.find((c) => c.path === '/api/console/downline/bulk')?.body).toEqual({ action: 'lock', user_ids: [9, 10] });
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(before));
    await user.click(within(dialog).getByTestId('bulk-close'));
    expect(screen.queryByTestId('bulk-bar')).not.toBeInTheDocument();
  });

  it('gives chips only with an amount, saying the total first', async () => {
    const calls = stubServer({
      ...BASE,
      'POST /api/console/downline/list': page([row({}), sita]),
      'POST /api/console/downline/bulk': { message: 'Done for all 2.', data: { done: 2, failed: 0, results: [] } },
    });
    storeSession(admin);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('downline-select-all'));
    await user.click(screen.getByTestId('bulk-give_chips'));
    const dialog = screen.getByTestId('bulk-dialog');
    await user.click(within(dialog).getByTestId('bulk-confirm'));
    expect(await within(dialog).findByText('Amount is required.')).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('bulk-amount'), '100.50');
    expect(within(dialog).getAllByTestId('bulk-plan-row')[0]).toHaveTextContent('ravi: gets ₹100.50 from its parent (balance ₹1,500.00 → ₹1,600.50)');
    expect(within(dialog).getByTestId('bulk-total')).toHaveTextContent('In all: ₹201.00 to 2 accounts.');
    await user.type(within(dialog).getByTestId('bulk-remark'), 'weekly');
    await user.click(within(dialog).getByTestId('bulk-confirm'));
    expect(await within(dialog).findByTestId('bulk-summary')).toHaveTextContent('Done for all 2.');
    expect(calls.find((c) => c.path === '/api/console/downline/bulk')?.body).toEqual({
      action: 'give_chips',
      user_ids: [9, 10],
      amount: '100.50',
      remark: 'weekly',
    });
  });
});
