import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Answers } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';
import type { AccountSafer } from './api';
import { minutesText } from './words';

const agent = { ...demoUser, user_id: 3, user_name: 'boss', role: 'agent' as const, parent_id: 1 };

const account = (role: 'client' | 'agent') => ({
  user_id: 12,
  user_name: role === 'client' ? 'ravi' : 'sub',
  role,
  parent_id: 3,
  partnership: 0,
  balance: 200,
  exposure: 0,
  available: 200,
  branch_balance: 200,
  branch_exposure: 0,
  branch_available: 200,
  pnl: 0,
  credit_reference: 0,
  max_stake: null,
  max_exposure: null,
  status: 'active',
  last_login: null,
  children: 0,
  path: [{ user_id: 12, user_name: 'ravi' }],
});

const NOTHING: AccountSafer = { limits: [], pending: [], left: [], operator_max_stake: null, active_break: null };

const SELF_EXCLUDED: AccountSafer = {
  limits: [
    { kind: 'session', period: null, value: 90 },
    { kind: 'stake', period: null, value: 500 },
    { kind: 'loss', period: 'week', value: 10000 },
    { kind: 'loss', period: 'day', value: 2000 },
    { kind: 'deposit', period: 'month', value: 150000 },
  ],
  pending: [
    { kind: 'loss', period: 'day', value: 5000, effective_at: '2026-11-30T09:00:00.000Z', confirmable: false },
    { kind: 'stake', period: null, value: null, effective_at: '2026-11-19T09:00:00.000Z', confirmable: true },
  ],
  left: [
    { kind: 'loss', period: 'day', value: 1240 },
    { kind: 'deposit', period: 'month', value: 0 },
  ],
  operator_max_stake: 25000,
  active_break: { kind: 'self_exclusion', period: '1y', started_at: '2026-11-20T10:00:00.000Z', until: '2027-11-20T10:00:00.000Z' },
};

function renderAccount(role: 'client' | 'agent', safer: AccountSafer) {
  const answers: Answers = {
    ...EMPTY_CATALOGUE,
    'POST /api/console/account/summary': { data: { account: account(role), trail: [{ user_id: 3, user_name: 'boss' }, { user_id: 12, user_name: 'ravi' }] } },
    'POST /api/console/account/pnl': { data: { user_id: 12, user_name: 'ravi', role, total: 0, rows: [] } },
    'POST /api/console/account/statement': { data: { rows: [], total: 0, page: 1, limit: 25 } },
    'POST /api/console/account/safer': { data: safer },
  };
  const calls = stubServer(answers);
  storeSession(agent);
  renderApp('/console/account/12');
  return calls;
}

const lines = (testId: string) => screen.getAllByTestId(testId).map((line) => line.textContent);

describe("a client's safer gambling on its console page", () => {
  it('says its limits, the changes waiting, what is left and its self-exclusion, with nothing to press', async () => {
    const calls = renderAccount('client', SELF_EXCLUDED);
    const panel = await screen.findByTestId('safer-panel');
    expect(await within(panel).findByTestId('safer-limits')).toBeInTheDocument();
    expect(lines('safer-limit')).toEqual([
      'Loss: ₹2,000.00 a day',
      'Loss: ₹10,000.00 a week',
      'Deposit: ₹1,50,000.00 a month',
      'Stake: ₹500.00 a bet',
      'Session: 1 hour 30 minutes',
    ]);
    expect(within(panel).getByTestId('safer-operator-max-stake')).toHaveTextContent('Every bet on the site: at most ₹25,000.00.');
    expect(lines('safer-pending-line')).toEqual([
      'Loss: ₹5,000.00 a day (from 30/11/2026 14:30:00 IST, once the bettor confirms it)',
      'Stake: to be removed (waiting since 19/11/2026 14:30:00 IST for the bettor to confirm it)',
    ]);
    expect(lines('safer-left-line')).toEqual(['Can lose ₹1,240.00 more today', 'Can deposit ₹0.00 more this month']);
    const pause = within(panel).getByTestId('safer-break');
    expect(pause).toHaveTextContent('Self-excluded for 1 year, since 20/11/2026 15:30:00 IST, until 20/11/2027 15:30:00 IST.');
    expect(pause).toHaveTextContent('It cannot be lifted or shortened before then, by the bettor, an agent or the operator.');
    // Read-only: nothing in the panel changes anything.
    expect(within(panel).getByTestId('safer-read-only')).toHaveTextContent('Read-only');
    expect(within(panel).queryAllByRole('button')).toEqual([]);
    expect(within(panel).queryAllByRole('textbox')).toEqual([]);
    expect(within(panel).queryByTestId('safer-no-limits')).not.toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/console/account/safer')?.body).toEqual({ user_id: 12 });
  });

  it('says a time-out the same way', async () => {
    renderAccount('client', {
      ...NOTHING,
      active_break: { kind: 'time_out', period: '48h', started_at: '2026-11-20T10:00:00.000Z', until: '2026-11-22T10:00:00.000Z' },
    });
    expect(await screen.findByTestId('safer-break')).toHaveTextContent('On a time-out of 48 hours, since 20/11/2026 15:30:00 IST, until 22/11/2026 15:30:00 IST.');
    expect(screen.getByTestId('safer-no-limits')).toHaveTextContent('None set.');
  });

  it('says "None set." for a client without limits, and shows no waiting, left or break', async () => {
    renderAccount('client', NOTHING);
    const panel = await screen.findByTestId('safer-panel');
    expect(await within(panel).findByTestId('safer-no-limits')).toHaveTextContent('None set.');
    for (const part of ['safer-limits', 'safer-pending', 'safer-left', 'safer-break', 'safer-operator-max-stake']) {
      expect(within(panel).queryByTestId(part)).not.toBeInTheDocument();
    }
  });

  it("is not on an agent's page, which does not ask for it", async () => {
    const calls = renderAccount('agent', NOTHING);
    expect(await screen.findByTestId('account-header')).toHaveTextContent('Agent');
    expect(screen.queryByTestId('safer-panel')).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/console/account/safer')).toBe(false);
  });
});

describe("a session limit's length", () => {
  it('reads in minutes and hours', () => {
    expect(minutesText(5)).toBe('5 minutes');
    expect(minutesText(1)).toBe('1 minute');
    expect(minutesText(60)).toBe('1 hour');
    expect(minutesText(61)).toBe('1 hour 1 minute');
    expect(minutesText(1440)).toBe('24 hours');
  });
});
