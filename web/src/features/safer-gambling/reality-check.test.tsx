// The reality check on the page's clock (fake timers): a reminder every interval from the
// server's started_at, with the session's net read again as it opens; Continue and Log out; the
// session limit's end logs the bettor out.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Call } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';
import { nextReminderAtMs } from './reality-check';

const MINUTE_MS = 60_000;
const count = (calls: Call[], path: string) => calls.filter((c) => c.path === `/api/${path}`).length;
/** Lets `ms` pass on the page's clock, timers and all. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

afterEach(() => vi.useRealTimers());

describe('the reality check’s schedule', () => {
  it('keeps to multiples of the interval from the log-in, whenever the page was loaded', () => {
    const tenOClock = Date.UTC(2026, 10, 29, 4, 30);
    expect(nextReminderAtMs(tenOClock, 45, tenOClock)).toBe(tenOClock + 45 * MINUTE_MS);
    // Loaded at 11:10: the next is 11:30, not 11:55.
    expect(nextReminderAtMs(tenOClock, 45, tenOClock + 70 * MINUTE_MS)).toBe(tenOClock + 90 * MINUTE_MS);
    // Right on a reminder: the one after it.
    expect(nextReminderAtMs(tenOClock, 45, tenOClock + 90 * MINUTE_MS)).toBe(tenOClock + 135 * MINUTE_MS);
    // A clock behind the server's: the first one.
    expect(nextReminderAtMs(tenOClock, 45, tenOClock - MINUTE_MS)).toBe(tenOClock + 45 * MINUTE_MS);
  });
});

describe('the reality check', () => {
  it('reminds every interval with the time logged in and the session’s net, until the bettor logs out', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // Logged in 14 minutes before the page asked (a reload: the schedule is the server's), reminded every 15.
    let startedAt: string | null = null;
    let net = 0;
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/sessionSummary': () => {
        startedAt ??= new Date(Date.now() - 14 * MINUTE_MS).toISOString();
        return { data: { started_at: startedAt, net, reality_check_minutes: 15, ends_at: null } };
      },
      'POST /api/user/logout': { message: 'Logged out.' },
    });
    storeSession();
    renderApp('/');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await screen.findByTestId('home-page');
    await waitFor(() => expect(count(calls, 'user/sessionSummary')).toBe(1));

    net = -1250.5;
    await pass(50 * 1000);
    expect(screen.queryByTestId('reality-check')).toBeNull();
    await pass(10 * 1000);
    const reminder = await screen.findByTestId('reality-check');
    expect(within(reminder).getByTestId('reality-duration')).toHaveTextContent('You have been logged in for 15 min.');
    // Read again as it opened: the net of now, in red.
    await waitFor(() => expect(within(reminder).getByTestId('reality-net')).toHaveTextContent('-₹1,250.50'));
    expect(within(reminder).getByTestId('reality-net')).toHaveClass('pnl', 'lose');
    expect(count(calls, 'user/sessionSummary')).toBe(2);

    await user.click(within(reminder).getByTestId('reality-continue'));
    expect(screen.queryByTestId('reality-check')).toBeNull();
    net = 300;
    await pass(14 * MINUTE_MS);
    expect(screen.queryByTestId('reality-check')).toBeNull();
    await pass(MINUTE_MS);
    const second = await screen.findByTestId('reality-check');
    expect(within(second).getByTestId('reality-duration')).toHaveTextContent('You have been logged in for 30 min.');
    await waitFor(() => expect(within(second).getByTestId('reality-net')).toHaveTextContent('₹300.00'));
    expect(within(second).getByTestId('reality-net')).toHaveClass('pnl', 'win');

    await user.click(within(second).getByTestId('reality-logout'));
    await screen.findByTestId('login-submit');
    expect(screen.queryByTestId('reality-check')).toBeNull();
    expect(calls.filter((c) => c.path === '/api/user/logout')).toHaveLength(1);
    expect(localStorage.getItem('usertoken')).toBeNull();
    expect(window.location.hash).toBe('#/login');
  });

  it('logs the bettor out when the session limit ends the session, and says why', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const now = Date.now();
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/sessionSummary': {
        data: { started_at: new Date(now - 88 * MINUTE_MS).toISOString(), net: 0, reality_check_minutes: 60, ends_at: new Date(now + 2 * MINUTE_MS).toISOString() },
      },
      'POST /api/user/logout': { message: 'Logged out.' },
    });
    storeSession();
    renderApp('/');
    await screen.findByTestId('home-page');
    await waitFor(() => expect(count(calls, 'user/sessionSummary')).toBe(1));
    await pass(MINUTE_MS);
    expect(localStorage.getItem('usertoken')).not.toBeNull();
    await pass(MINUTE_MS);
    expect(await screen.findByTestId('farewell')).toHaveTextContent('Your session limit was reached, so you have been logged out.');
    expect(localStorage.getItem('usertoken')).toBeNull();
    expect(count(calls, 'user/logout')).toBe(1);
    // Logged out before its 90th minute: no reminder came.
    expect(screen.queryByTestId('reality-check')).toBeNull();
  });

  it('says why all the same when the server, its clock ahead, refuses the session first', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const endsMs = Date.now() + MINUTE_MS;
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/sessionSummary': {
        data: { started_at: new Date(endsMs - 30 * MINUTE_MS).toISOString(), net: 0, reality_check_minutes: 60, ends_at: new Date(endsMs).toISOString() },
      },
      // The server's clock is 8 s ahead: from its ends_at on, the session's token is refused.
      'GET /api/user/getUserBalance': () =>
        Date.now() + 8000 >= endsMs ? { httpStatus: 401, message: 'Your session has ended.' } : { data: { total_balance: 1500, liability: 0, available: 1500 } },
    });
    storeSession();
    renderApp('/');
    await screen.findByTestId('home-page');
    await waitFor(() => expect(count(calls, 'user/sessionSummary')).toBe(1));
    await pass(MINUTE_MS - 5000);
    expect(await screen.findByTestId('farewell')).toHaveTextContent('Your session limit was reached, so you have been logged out.');
    expect(localStorage.getItem('usertoken')).toBeNull();
    // Ended by the server's refusal, before the page's own timer.
    expect(count(calls, 'user/logout')).toBe(0);
  });

  it('is not run for the console’s users', async () => {
    const calls = stubServer({ ...EMPTY_CATALOGUE, 'POST /api/admin/audit': { data: { rows: [], total: 0, page: 1, limit: 50 } } });
    storeSession({ token: 'tok-admin', user_id: 1, user_name: 'admin', is_change_password: 0, parent_id: -1, role: 'admin' });
    renderApp('/console/audit');
    await screen.findByTestId('audit-page');
    expect(count(calls, 'user/sessionSummary')).toBe(0);
  });
});
