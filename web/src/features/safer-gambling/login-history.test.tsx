// Log-in history and live sessions against docs/api.md's shapes with fetch stubbed.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';
import type { LiveSession, LoginHistoryRow } from './api';

const ROWS: LoginHistoryRow[] = [
  { at: '2026-11-29T08:00:00.000Z', ip: '203.0.113.7', device: 'Chrome 131 on Windows', result: 'ok' },
  { at: '2026-11-29T07:59:00.000Z', ip: '203.0.113.7', device: 'Chrome 131 on Windows', result: 'wrong_password' },
  { at: '2026-11-20T10:00:00.000Z', ip: '198.51.100.4', device: 'Safari 18 on iOS', result: 'timed_out' },
];

const SESSIONS: LiveSession[] = [
  { id: 11, started_at: '2026-11-29T08:00:00.000Z', ip: '203.0.113.7', device: 'Chrome 131 on Windows', kind: 'web', current: true },
  { id: 12, started_at: '2026-11-28T18:30:00.000Z', ip: '198.51.100.4', device: 'Safari 18 on iOS', kind: 'web', current: false },
  { id: 13, started_at: '2026-11-27T06:00:00.000Z', ip: '192.0.2.1', device: 'python-requests 2.32', kind: 'bot', current: false },
];

describe('log-in history', () => {
  it('lists log-ins newest first with their result in words, paged like the reports', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/sessions': { data: { sessions: SESSIONS } },
      'GET /api/user/loginHistory?page=1&limit=20': { data: { rows: ROWS, total: 23, page: 1, limit: 20 } },
      'GET /api/user/loginHistory?page=2&limit=20': {
        data: { rows: [{ at: '2026-10-01T04:30:00.000Z', ip: '192.0.2.9', device: 'Firefox 130 on Linux', result: 'locked' }], total: 23, page: 2, limit: 20 },
      },
    });
    storeSession();
    renderApp('/login-history');
    const user = userEvent.setup();
    const table = await screen.findByTestId('login-history-table');
    await within(table).findAllByTestId('login-row');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Time', 'Result', 'Device', 'IP address']);
    expect(within(table).getAllByTestId('login-row').map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['29/11/2026 13:30:00', 'Logged in', 'Chrome 131 on Windows', '203.0.113.7'],
      ['29/11/2026 13:29:00', 'Wrong password', 'Chrome 131 on Windows', '203.0.113.7'],
      ['20/11/2026 15:30:00', 'Refused: time-out', 'Safari 18 on iOS', '198.51.100.4'],
    ]);
    // On a phone each cell says its column.
    expect(within(table).getAllByTestId('login-row')[1].querySelector('td')).toHaveAttribute('data-label', 'Time');
    const page = screen.getByTestId('log-ins');
    expect(within(page).getByText('Showing 1 to 20 of 23')).toBeInTheDocument();

    await user.click(within(within(page).getByTestId('pagination')).getByRole('button', { name: '2' }));
    expect(await within(table).findByText('Refused: account locked')).toBeInTheDocument();
    expect(within(page).getByText('Showing 21 to 23 of 23')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/user/loginHistory?page=2&limit=20')).toBe(true);
  });

  it('marks this session among the live ones and logs out everywhere else, saying how many ended', async () => {
    let ended = false;
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/sessions': () => ({ data: { sessions: ended ? SESSIONS.slice(0, 1) : SESSIONS } }),
      'GET /api/user/loginHistory?page=1&limit=20': { data: { rows: [], total: 0, page: 1, limit: 20 } },
      'POST /api/user/logoutOthers': () => {
        ended = true;
        return { message: 'Logged out 2 other sessions.', data: { ended: 2 } };
      },
    });
    storeSession();
    renderApp('/login-history');
    const user = userEvent.setup();
    const live = await screen.findByTestId('live-sessions');
    const rows = await within(live).findAllByTestId('session-row');
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['29/11/2026 13:30:00', 'Chrome 131 on Windows This device', '203.0.113.7', 'Web'],
      ['29/11/2026 00:00:00', 'Safari 18 on iOS', '198.51.100.4', 'Web'],
      ['27/11/2026 11:30:00', 'python-requests 2.32', '192.0.2.1', 'Bot API'],
    ]);
    expect(within(rows[0]).getByTestId('current-session')).toBeInTheDocument();
    expect(within(screen.getByTestId('log-ins')).getByText('No log-ins yet.')).toBeInTheDocument();

    await user.click(within(live).getByTestId('logout-others'));
    expect(await within(live).findByTestId('logout-others-message')).toHaveTextContent('2 other sessions were logged out.');
    await waitFor(() => expect(within(live).getAllByTestId('session-row')).toHaveLength(1));
    // Only this one is left: nothing else to log out.
    expect(within(live).getByTestId('logout-others')).toBeDisabled();
    expect(calls.filter((c) => c.path === '/api/user/logoutOthers')).toHaveLength(1);
    // This session goes on.
    expect(window.location.hash).toBe('#/login-history');
  });
});
