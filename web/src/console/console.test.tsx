import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Answers } from '../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../testing/render';

const agent = { ...demoUser, user_id: 2, user_name: 'agent', role: 'agent' as const, parent_id: 1 };
const admin = { ...demoUser, user_id: 1, user_name: 'admin', role: 'admin' as const, parent_id: -1 };

const ravi = {
  user_id: 9,
  user_name: 'ravi',
  role: 'client',
  balance: 1500.5,
  exposure: 200.25,
  available: 1300.25,
  pnl: -420.75,
  credit_reference: 5000,
  max_stake: null,
  max_exposure: 2500,
  status: 'active',
  last_login: '2026-11-22T08:30:00.000Z',
  children: 0,
  parent_id: 2,
  partnership: 0,
  branch_balance: 1500.5,
  branch_exposure: 200.25,
  branch_available: 1300.25,
  path: [{ user_id: 9, user_name: 'ravi' }],
};
const page = (rows: unknown[]) => ({ data: { rows, total: rows.length, page: 1, limit: 25 } });

const CONSOLE: Answers = {
  ...EMPTY_CATALOGUE,
  'POST /api/console/downline/list': page([ravi]),
  'POST /api/admin/payment/list': page([]),
  'POST /api/admin/audit': page([]),
  'POST /api/console/dashboard': {
    data: {
      from_date: '2026-11-22', to_date: '2026-11-22', turnover: 0, bets: 0, active_bettors: 0, house_result: 0,
      by_product: { exchange_commission: 0, bookmaker: 0, fancy: 0, casino: 0 },
      days: [{ date: '2026-11-22', house_result: 0 }], open_exposure: 0, pending_payments: 0, top_markets: [], live_matches: [],
    },
  },
  // An admin's dashboard reads the server's own figures too.
  'POST /api/console/system': {
    data: {
      recording: true, bets_placed: 0, bets_refused: 0, refused_by_reason: [], placement_p50_ms: null, placement_p99_ms: null,
      commit_p99_ms: null, bets_per_commit: null, stream_subscribers: 0, markets_running: 0, deepest_queue: 0, db_pool_in_use: 0,
      db_pool_idle: 1, logins: { ok: 1, refused: 0, throttled: 0 }, feed_lag: [], forwarded_calls: 0, forwarded_p50_ms: null,
      lease_renewals: { ok: 0, lost: 0, failed: 0 },
    },
  },
};

const navLabels = () =>
  within(screen.getByRole('navigation', { name: 'Console' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('the console guard', () => {
  it('sends a visitor without a session to the log-in page', async () => {
    stubServer(CONSOLE);
    renderApp('/console/downline');
    expect(await screen.findByTestId('login-submit')).toBeInTheDocument();
    expect(window.location.hash).toBe('#/login');
  });

  it('sends a client to the betting app without asking for any console data', async () => {
    const calls = stubServer(CONSOLE);
    storeSession(demoUser);
    renderApp('/console/downline');
    expect(await screen.findByTestId('home-page')).toBeInTheDocument();
    expect(window.location.hash).toBe('#/');
    expect(screen.queryByTestId('console-layout')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith('/api/admin/'))).toEqual([]);
  });

  it("lets an agent in with the agent's sections only", async () => {
    stubServer(CONSOLE);
    storeSession(agent);
    renderApp('/console');
    expect(await screen.findByTestId('dashboard-page')).toBeInTheDocument();
    expect(window.location.hash).toBe('#/console/dashboard');
    expect(navLabels()).toEqual(['Dashboard', 'Downline', 'Payments', 'Risk', 'Reports']);
    expect(screen.getByTestId('console-user-name')).toHaveTextContent('agent');
    expect(await screen.findByTestId('console-balance')).toHaveTextContent('₹1,500.00');
  });

  it("keeps an agent out of the operator's screens", async () => {
    const calls = stubServer(CONSOLE);
    storeSession(agent);
    renderApp('/console/audit');
    expect(await screen.findByTestId('console-not-found')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/admin/audit')).toBe(false);
  });

  it('shows an admin every section', async () => {
    stubServer(CONSOLE);
    storeSession(admin);
    renderApp('/console/audit');
    expect(await screen.findByTestId('audit-page')).toBeInTheDocument();
    expect(navLabels()).toEqual(['Dashboard', 'Downline', 'Payments', 'Audit log', 'Settings', 'Markets', 'Trading desk', 'Feeds', 'Risk', 'Reports', 'Casino']);
  });

  it('lands an admin on the console after log-in', async () => {
    stubServer({ ...CONSOLE, 'POST /api/user/login': { data: { ...admin, security_enabled: 0 } } });
    renderApp('/login');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('login-user-name'), 'admin');
    await user.type(screen.getByTestId('login-password'), 'Admin@1234');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('dashboard-page')).toBeInTheDocument();
    expect(window.location.hash).toBe('#/console/dashboard');
    expect(await screen.findByTestId('system-card')).toHaveTextContent('System (this server)');
  });
});

describe('the downline', () => {
  it('shows each account with its chips, P&L, terms and last log-in, its name opening its page', async () => {
    stubServer({ ...CONSOLE, 'POST /api/console/account/pnl': { httpStatus: 404, message: 'Not here.' } });
    storeSession(agent);
    renderApp('/console/downline');
    const row = await screen.findByTestId('downline-row');
    expect(within(row).getByText('₹1,500.50')).toBeInTheDocument();
    expect(within(row).getByText('₹200.25')).toBeInTheDocument();
    expect(within(row).getByText('₹1,300.25')).toBeInTheDocument();
    expect(within(row).getByTestId('downline-pnl')).toHaveTextContent('-₹420.75');
    expect(within(row).getByTestId('downline-pnl')).toHaveClass('lose');
    expect(within(row).getByTestId('downline-credit-reference')).toHaveTextContent('₹5,000.00');
    expect(within(row).getByTestId('downline-status')).toHaveTextContent('Active');
    expect(within(row).getByText('22/11/2026 14:00:00')).toBeInTheDocument();
    expect(within(row).getByTestId('downline-account')).toHaveAttribute('href', '#/console/account/9');
  });

  it('searches, sorts and pages on the server', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...ravi, user_id: 100 + i, user_name: `c${i}` }));
    const calls = stubServer({
      ...CONSOLE,
      'POST /api/console/downline/list': (call) => {
        const body = call.body as { search?: string; page: number };
        if (body.search === 'zz') return page([]);
        return { data: { rows: body.page === 2 ? [ravi] : many, total: 26, page: body.page, limit: 25 } };
      },
    });
    storeSession(admin);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await screen.findAllByTestId('downline-row');
    const lastList = () => calls.filter((c) => c.path === '/api/console/downline/list').at(-1)?.body;
    expect(lastList()).toEqual({ sort: 'name', order: 'asc', page: 1, limit: 25 });

    await user.click(screen.getByTestId('downline-sort-pnl'));
    await waitFor(() => expect(lastList()).toEqual({ sort: 'pnl', order: 'desc', page: 1, limit: 25 }));
    await user.click(screen.getByTestId('downline-sort-pnl'));
    await waitFor(() => expect(lastList()).toEqual({ sort: 'pnl', order: 'asc', page: 1, limit: 25 }));
    expect(screen.getByTestId('downline-sort-pnl').closest('th')).toHaveAttribute('aria-sort', 'ascending');

    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(lastList()).toEqual({ sort: 'pnl', order: 'asc', page: 2, limit: 25 }));

    await user.type(screen.getByTestId('downline-search'), ' zz ');
    await user.click(screen.getByTestId('downline-search-submit'));
    await waitFor(() => expect(lastList()).toEqual({ search: 'zz', sort: 'pnl', order: 'asc', page: 1, limit: 25 }));
    expect(await screen.findByText('No account matches “zz”.')).toBeInTheDocument();
  });

  it("walks down to an agent's accounts and back", async () => {
    const calls = stubServer({
      ...CONSOLE,
      'POST /api/console/downline/list': (call) =>
        (call.body as { parent_id?: number }).parent_id === 5
          ? page([ravi])
          : page([{ ...ravi, user_id: 5, user_name: 'sub', role: 'agent', children: 1, path: [{ user_id: 5, user_name: 'sub' }] }]),
    });
    storeSession(agent);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('downline-open'));
    expect(await screen.findByText('ravi')).toBeInTheDocument();
    expect(screen.getByTestId('downline-trail')).toHaveTextContent(/^agent\s*sub$/);
    expect(calls.filter((c) => c.path === '/api/console/downline/list').at(-1)?.body).toMatchObject({ parent_id: 5 });
    await user.click(within(screen.getByTestId('downline-trail')).getByText('agent'));
    expect(await screen.findByText('sub')).toBeInTheDocument();
  });

  it("creates an account, with its own errors first and the server's next to the field", async () => {
    const calls = stubServer({
      ...CONSOLE,
      'POST /api/admin/user/create': {
        httpStatus: 400,
        message: 'Check the fields.',
        data: { errors: { user_name: 'User name may hold only letters, digits and _.' } },
      },
    });
    storeSession(agent);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('create-account'));
    const dialog = screen.getByTestId('create-account-dialog');
    // A partnership is asked for an agent only, and must be a percentage.
    expect(within(dialog).queryByTestId('create-partnership')).not.toBeInTheDocument();
    await user.selectOptions(within(dialog).getByTestId('create-role'), 'agent');
    await user.type(within(dialog).getByTestId('create-partnership'), '140');
    await user.click(within(dialog).getByTestId('create-submit'));
    expect(await within(dialog).findByText("An agent's partnership is 0 to 100%, at most its parent's.")).toBeInTheDocument();
    await user.selectOptions(within(dialog).getByTestId('create-role'), 'client');
    expect(within(dialog).queryByTestId('create-partnership')).not.toBeInTheDocument();

    await user.click(within(dialog).getByTestId('create-submit'));
    expect(await within(dialog).findByText('User name is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('A first password is required.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/admin/user/create')).toBe(false);

    await user.type(within(dialog).getByTestId('create-user-name'), 'ra vi');
    await user.type(within(dialog).getByTestId('create-password'), 'Start@1234');
    await user.click(within(dialog).getByTestId('create-submit'));
    const nameField = within(dialog).getByTestId('create-user-name').closest('label')!;
    expect(await within(nameField).findByText('User name may hold only letters, digits and _.')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/admin/user/create')?.body).toEqual({ user_name: 'ra vi', password: 'Start@1234', role: 'client', terms: {} });
  });

  it("shows an admin the refusal of an account's place where the parent is named", async () => {
    const calls = stubServer({
      ...CONSOLE,
      'POST /api/console/downline/list': (call) =>
        (call.body as { parent_id?: number }).parent_id === 5 ? page([]) : page([{ ...ravi, user_id: 5, user_name: 'master', role: 'agent', children: 0, path: [{ user_id: 5, user_name: 'master' }] }]),
      'POST /api/admin/user/create': {
        httpStatus: 400,
        message: 'Check the fields.',
        data: { errors: { parent_id: 'A client cannot be placed under the agent master.' } },
      },
    });
    storeSession(admin);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('downline-open'));
    expect(await screen.findByText('No accounts yet: create one.')).toBeInTheDocument();
    expect(screen.getByTestId('downline-trail')).toHaveTextContent(/^admin\s*master$/);

    await user.click(screen.getByTestId('create-account'));
    const dialog = screen.getByTestId('create-account-dialog');
    expect(within(dialog).getByTestId('create-account-parent')).toHaveTextContent('Under master');
    await user.type(within(dialog).getByTestId('create-user-name'), 'sita');
    await user.type(within(dialog).getByTestId('create-password'), 'Start@1234');
    await user.click(within(dialog).getByTestId('create-submit'));
    expect(await within(dialog).findByTestId('create-parent-error')).toHaveTextContent('A client cannot be placed under the agent master.');
    // Drilled in, the form asks for the account it names as the parent (issue 28).
    expect(calls.find((c) => c.path === '/api/admin/user/create')?.body).toMatchObject({ parent_id: 5, user_name: 'sita' });
    expect(within(dialog).queryByTestId('error-message')).not.toBeInTheDocument();
  });

  it('deposits the amount exactly as typed, with the remark', async () => {
    const calls = stubServer({
      ...CONSOLE,
      'POST /api/admin/user/transfer': { message: 'Transfer done.', data: { transaction_id: 1, user_balance: 2500.6, parent_balance: 10 } },
    });
    storeSession(agent);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('row-deposit'));
    const dialog = screen.getByTestId('transfer-dialog');
    await user.type(within(dialog).getByTestId('transfer-amount'), '1000.125');
    await user.click(within(dialog).getByTestId('transfer-submit'));
    expect(await within(dialog).findByText(/at most 2 decimals/)).toBeInTheDocument();
    await user.clear(within(dialog).getByTestId('transfer-amount'));
    await user.type(within(dialog).getByTestId('transfer-amount'), '0');
    await user.click(within(dialog).getByTestId('transfer-submit'));
    expect(await within(dialog).findByText('Amount must be more than 0.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/admin/user/transfer')).toBe(false);

    await user.clear(within(dialog).getByTestId('transfer-amount'));
    await user.type(within(dialog).getByTestId('transfer-amount'), '1000.10');
    await user.type(within(dialog).getByTestId('transfer-remark'), 'opening chips');
    await user.click(within(dialog).getByTestId('transfer-submit'));
    await waitFor(() => expect(screen.queryByTestId('transfer-dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/admin/user/transfer')?.body).toEqual({
      user_id: 9,
      direction: 'deposit',
      amount: '1000.10',
      remark: 'opening chips',
    });
  });

  it("shows the server's refusal of a withdrawal in the dialog", async () => {
    stubServer({
      ...CONSOLE,
      'POST /api/admin/user/transfer': { httpStatus: 422, message: 'ravi has only ₹1,300.25 available.' },
    });
    storeSession(agent);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('row-withdraw'));
    const dialog = screen.getByTestId('transfer-dialog');
    await user.type(within(dialog).getByTestId('transfer-amount'), '5000');
    await user.click(within(dialog).getByTestId('transfer-submit'));
    expect(await within(dialog).findByTestId('error-message')).toHaveTextContent('ravi has only ₹1,300.25 available.');
  });
});

describe("an account's terms and password", () => {
  it('sends only the terms changed, a cleared cap as null, and shows refusals at their fields', async () => {
    const calls = stubServer({
      ...CONSOLE,
      'POST /api/admin/user/terms': (call) =>
        (call.body as { terms: { max_stake?: unknown } }).terms.max_stake === '1'
          ? { httpStatus: 400, message: 'Check the fields.', data: { errors: { max_stake: 'The most a bet may stake is below the market minimum.' } } }
          : { message: "ravi's terms are saved.", data: {} },
    });
    storeSession(agent);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('row-terms'));
    const dialog = screen.getByTestId('terms-dialog');
    // The form starts from the account's terms.
    expect(within(dialog).getByTestId('terms-credit-reference')).toHaveValue('5000.00');
    expect(within(dialog).getByTestId('terms-max-stake')).toHaveValue('');
    expect(within(dialog).getByTestId('terms-max-exposure')).toHaveValue('2500.00');
    expect(within(dialog).getByTestId('terms-bet-locked')).not.toBeChecked();

    await user.clear(within(dialog).getByTestId('terms-credit-reference'));
    await user.type(within(dialog).getByTestId('terms-credit-reference'), '12.345');
    await user.type(within(dialog).getByTestId('terms-max-stake'), '0');
    await user.click(within(dialog).getByTestId('terms-submit'));
    expect(await within(dialog).findByText('Credit reference must be a number with at most 2 decimals.')).toBeInTheDocument();
    expect(within(dialog).getByText('Max stake must be more than 0, or empty for no cap.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/admin/user/terms')).toBe(false);

    await user.clear(within(dialog).getByTestId('terms-credit-reference'));
    await user.type(within(dialog).getByTestId('terms-credit-reference'), '5000');
    await user.clear(within(dialog).getByTestId('terms-max-stake'));
    await user.type(within(dialog).getByTestId('terms-max-stake'), '1');
    await user.click(within(dialog).getByTestId('terms-submit'));
    const stakeField = within(dialog).getByTestId('terms-max-stake').closest('label')!;
    expect(await within(stakeField).findByText('The most a bet may stake is below the market minimum.')).toBeInTheDocument();

    await user.clear(within(dialog).getByTestId('terms-max-stake'));
    await user.type(within(dialog).getByTestId('terms-max-stake'), '500.5');
    await user.clear(within(dialog).getByTestId('terms-max-exposure'));
    await user.click(within(dialog).getByTestId('terms-bet-locked'));
    await user.click(within(dialog).getByTestId('terms-submit'));
    await waitFor(() => expect(screen.queryByTestId('terms-dialog')).not.toBeInTheDocument());
    // 5000 is the credit reference it had: not sent.
    expect(calls.filter((c) => c.path === '/api/admin/user/terms').at(-1)?.body).toEqual({
      user_id: 9,
      terms: { bet_locked: 1, max_stake: '500.5', max_exposure: null },
    });
  });

  it('resets a password after checking its rules, with the refusal at the field', async () => {
    const calls = stubServer({
      ...CONSOLE,
      'POST /api/admin/user/resetPassword': (call) =>
        (call.body as { password: string }).password === 'Same@1234'
          ? { httpStatus: 400, message: 'Check the fields.', data: { errors: { password: 'Choose a password the account has not used.' } } }
          : { message: "ravi's password is reset: they choose a new one at their next log-in.", data: {} },
    });
    storeSession(agent);
    renderApp('/console/downline');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('row-reset-password'));
    const dialog = screen.getByTestId('reset-password-dialog');
    await user.type(within(dialog).getByTestId('reset-password'), 'short');
    await user.click(within(dialog).getByTestId('reset-password-submit'));
    expect(await within(dialog).findByText('Password must be at least 8 characters.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/admin/user/resetPassword')).toBe(false);

    await user.clear(within(dialog).getByTestId('reset-password'));
    await user.type(within(dialog).getByTestId('reset-password'), 'Same@1234');
    await user.click(within(dialog).getByTestId('reset-password-submit'));
    const field = within(dialog).getByTestId('reset-password').closest('label')!;
    expect(await within(field).findByText('Choose a password the account has not used.')).toBeInTheDocument();

    await user.clear(within(dialog).getByTestId('reset-password'));
    await user.type(within(dialog).getByTestId('reset-password'), 'Fresh@1234');
    await user.click(within(dialog).getByTestId('reset-password-submit'));
    await waitFor(() => expect(screen.queryByTestId('reset-password-dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === '/api/admin/user/resetPassword').at(-1)?.body).toEqual({ user_id: 9, password: 'Fresh@1234' });
  });
});

describe('the audit log', () => {
  it("filters on the server and shows a refused filter at its field", async () => {
    const entry = {
      id: 3,
      actor_user_id: 2,
      actor_name: 'agent',
      action: 'chips.transfer',
      target: 'user:9',
      target_name: 'ravi',
      detail: { direction: 'deposit', amount: 1500.5, user_balance: { before: 100, after: 1600.5 } },
      client_ip: '10.0.0.7',
      date: '2026-11-22T08:30:00.000Z',
    };
    const calls = stubServer({
      ...CONSOLE,
      'POST /api/admin/audit': (call) =>
        (call.body as { actor?: string }).actor === 'nobody'
          ? { httpStatus: 400, message: 'Check the fields.', data: { errors: { actor: 'There is no user named nobody.' } } }
          : page([entry]),
    });
    storeSession(admin);
    renderApp('/console/audit');
    const user = userEvent.setup();
    const row = await screen.findByTestId('audit-row');
    expect(within(row).getByText('agent')).toBeInTheDocument();
    expect(within(row).getByText('22/11/2026 14:00:00')).toBeInTheDocument();
    expect(within(row).getByText(/direction: deposit/)).toBeInTheDocument();
    // Whom by name and id; a balance before → after, in rupees (issue 28).
    expect(within(row).getByText('ravi (user #9)')).toBeInTheDocument();
    expect(within(row).getByText(/user_balance: 100 → 1600\.5/)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/admin/audit')?.body).toEqual({ page: 1, limit: 50 });

    await user.type(screen.getByTestId('audit-action'), 'chips');
    await user.type(screen.getByTestId('audit-from'), '2026-11-22');
    await user.click(screen.getByTestId('audit-apply'));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/admin/audit').at(-1)?.body).toEqual({ action: 'chips', from_date: '2026-11-22', page: 1, limit: 50 }),
    );

    await user.type(screen.getByTestId('audit-actor'), 'nobody');
    await user.click(screen.getByTestId('audit-apply'));
    const actorField = screen.getByTestId('audit-actor').closest('label')!;
    expect(await within(actorField).findByText('There is no user named nobody.')).toBeInTheDocument();
  });
});
