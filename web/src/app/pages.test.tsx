// Screens driven against API.md's shapes with fetch stubbed: security auth, reports, casino.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, lastBodyTo } from '../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../testing/render';

describe('log-in with security auth', () => {
  it('asks for the code, keeps the otp-verify flag meanwhile, and logs in after user/verifyOtp', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/user/login': { data: { otp_required: true, otp_token: 'otp-tok' } },
      'POST /api/user/verifyOtp': { data: demoUser },
    });
    renderApp('/login');
    const user = userEvent.setup();

    await user.type(await screen.findByTestId('login-user-name'), 'demo');
    await user.type(screen.getByTestId('login-password'), 'Demo@1234');
    await user.click(screen.getByTestId('login-submit'));
    await user.type(await screen.findByTestId('otp-code'), '12');
    await user.click(screen.getByTestId('otp-submit'));
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
    expect(localStorage.getItem('otpVerify')).toBe('otp-tok');

    await user.type(screen.getByTestId('otp-code'), '3456');
    await user.click(screen.getByTestId('otp-submit'));
    expect(await screen.findByTestId('home-page')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/user/verifyOtp')?.body).toEqual({ otp_token: 'otp-tok', otp: '123456' });
    expect(localStorage.getItem('otpVerify')).toBeNull();
    expect(localStorage.getItem('usertoken')).toBe('tok-demo');
  });
});

describe('security auth', () => {
  const SETUP = { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/Backlay:demo?secret=JBSWY3DPEHPK3PXP&issuer=Backlay' };
  const storedFlag = () => (JSON.parse(localStorage.getItem('userinfo') ?? '{}') as { security_enabled?: number }).security_enabled;

  it('when off: shows a QR code and the key, then enables with a code and offers to turn it off', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/security/status': { data: { enabled: 0 } },
      'POST /api/user/security/setup': { data: SETUP },
      'POST /api/user/security/enable': { message: 'Security auth is on.' },
    });
    storeSession();
    renderApp('/security-auth/');
    const user = userEvent.setup();

    expect(await screen.findByTestId('security-disabled')).toHaveTextContent('Security auth is off');
    expect(screen.queryByTestId('security-disable')).toBeNull();
    await user.click(screen.getByTestId('security-setup'));
    expect(await screen.findByTestId('security-qr')).toContainHTML('<svg');
    expect(screen.getByTestId('security-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    await user.type(screen.getByTestId('security-otp'), '654321');
    await user.click(screen.getByTestId('security-enable'));
    expect(await screen.findByTestId('security-enabled')).toBeInTheDocument();
    expect(screen.getByTestId('security-disable')).toBeInTheDocument();
    expect(screen.queryByTestId('security-setup')).toBeNull();
    expect(calls.find((c) => c.path === '/api/user/security/enable')?.body).toEqual({ otp: '654321' });
    expect(storedFlag()).toBe(1);
  });

  it("when on: offers only to turn it off, shows the server's message for a wrong code, then is off", async () => {
    let wrong = true;
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/security/status': { data: { enabled: 1 } },
      'POST /api/user/security/disable': () =>
        wrong
          ? { httpStatus: 400, message: 'Invalid input.', data: { errors: { otp: 'This code has already been used. Wait for the next one.' } } }
          : { message: 'Security auth is off.' },
    });
    storeSession({ ...demoUser, security_enabled: 0 });
    renderApp('/security-auth/');
    const user = userEvent.setup();

    expect(await screen.findByTestId('security-enabled')).toHaveTextContent('Security auth is on');
    expect(screen.queryByTestId('security-setup')).toBeNull();
    expect(storedFlag()).toBe(1);

    // Both fields are checked before anything is sent.
    await user.click(screen.getByTestId('security-disable'));
    expect(await screen.findByText('Password is required.')).toBeInTheDocument();
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/user/security/disable')).toBe(false);

    await user.type(screen.getByTestId('security-disable-password'), 'Demo@1234');
    await user.type(screen.getByTestId('security-disable-otp'), '111111');
    await user.click(screen.getByTestId('security-disable'));
    expect(await screen.findByText('This code has already been used. Wait for the next one.')).toBeInTheDocument();
    expect(screen.getByTestId('security-enabled')).toBeInTheDocument();

    wrong = false;
    await user.clear(screen.getByTestId('security-disable-otp'));
    await user.type(screen.getByTestId('security-disable-otp'), '222222');
    await user.click(screen.getByTestId('security-disable'));
    expect(await screen.findByTestId('security-setup')).toBeInTheDocument();
    expect(screen.queryByTestId('security-enabled')).toBeNull();
    expect(calls.filter((c) => c.path === '/api/user/security/disable').at(-1)?.body).toEqual({ otp: '222222', password: 'Demo@1234' });
    expect(storedFlag()).toBe(0);
  });

  it("shows the server's message when setting up is refused", async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/user/security/status': { data: { enabled: 0 } },
      'POST /api/user/security/setup': { httpStatus: 409, message: 'Security auth is already on. Turn it off first to set up a new key.' },
    });
    storeSession();
    renderApp('/security-auth/');

    await userEvent.click(await screen.findByTestId('security-setup'));
    expect(await screen.findByTestId('error-message')).toHaveTextContent('Security auth is already on. Turn it off first to set up a new key.');
  });

  it("shows the server's message when the status cannot be read", async () => {
    stubServer({ ...EMPTY_CATALOGUE, 'GET /api/user/security/status': { httpStatus: 500, message: 'The database is busy. Try again.' } });
    storeSession();
    renderApp('/security-auth/');

    expect(await screen.findByTestId('error-message')).toHaveTextContent('The database is busy. Try again.');
    expect(screen.queryByTestId('security-setup')).toBeNull();
    expect(screen.queryByTestId('security-disable')).toBeNull();
  });

  it("shows a missing call as an error in the server's words", async () => {
    stubServer({ ...EMPTY_CATALOGUE, 'GET /api/user/security/status': { httpStatus: 404, message: 'There is no API call GET /api/user/security/status.' } });
    storeSession();
    renderApp('/security-auth/');

    expect(await screen.findByTestId('error-message')).toHaveTextContent('There is no API call GET /api/user/security/status.');
    expect(screen.getByTestId('error-message')).not.toHaveTextContent('not available');
  });
});

describe('reports', () => {
  it('sends the date filters and pages with at most 7 links', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/accountStatement': (call) => {
        const { page } = call.body as { page: number };
        return {
          data: {
            rows: [{ id: page, date: '2026-11-22T14:00:00.000Z', description: `Row of page ${page}`, credit: 100, debit: 0, balance: 1100, remark: 'demo' }],
            total: 200,
            page,
            limit: 20,
          },
        };
      },
    });
    storeSession();
    renderApp('/report/account-statement');
    const user = userEvent.setup();

    expect(await screen.findByText('Row of page 1')).toBeInTheDocument();
    const table = screen.getByTestId('report-table');
    expect(within(table).getByText('22/11/2026 19:30:00')).toBeInTheDocument();
    expect(within(table).getByText('₹100.00')).toBeInTheDocument();
    const first = calls.find((c) => c.path === '/api/report/accountStatement')!.body as Record<string, unknown>;
    expect(first).toMatchObject({ type: 'all', page: 1, limit: 20 });
    expect(first.from_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const pager = screen.getByTestId('pagination');
    expect(within(pager).getAllByRole('button').map((b) => b.textContent)).toEqual(['Previous', '1', '2', '3', '4', '5', '6', '7', 'Next']);
    await user.click(within(pager).getByText('Next'));
    expect(await screen.findByText('Row of page 2')).toBeInTheDocument();

    await user.selectOptions(screen.getByTestId('filter-type'), 'casino');
    await user.click(screen.getByTestId('filter-submit'));
    await waitFor(() => expect(lastBodyTo(calls, '/api/report/accountStatement')).toMatchObject({ type: 'casino', page: 1 }));

    // Each cell names its column, for the stacked rows on a phone.
    for (const cell of within(screen.getByTestId('report-table')).getAllByRole('cell')) expect(cell).toHaveAttribute('data-label');

    // The dates show and take dd/mm/yyyy, as the table writes them.
    const from = screen.getByTestId('filter-from');
    expect(from).toHaveValue(dayTextOf(first.from_date as string));
    await user.clear(from);
    await user.type(from, '31/02/2026');
    expect(screen.getByTestId('filter-submit')).toBeDisabled();
    expect(screen.getByText('Enter both dates as dd/mm/yyyy, e.g. 24/11/2026.')).toBeInTheDocument();
    await user.clear(from);
    await user.type(from, '01/11/2026');
    await user.click(screen.getByTestId('filter-submit'));
    await waitFor(() => expect(lastBodyTo(calls, '/api/report/accountStatement')).toMatchObject({ from_date: '2026-11-01', page: 1 }));
  });

  it("shows a report the server refuses (even a 404) in the server's words", async () => {
    stubServer({ ...EMPTY_CATALOGUE, 'POST /api/report/currentBets': { httpStatus: 404, message: 'There is no API call POST /api/report/currentBets.' } });
    storeSession();
    renderApp('/report/current-bet');

    expect(await screen.findByTestId('error-message')).toHaveTextContent('There is no API call POST /api/report/currentBets.');
  });
});

describe('casino game page', () => {
  it('frames a game only from an allow-listed origin', async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/globalSetting/getGlobalSetting': { data: { site_title: 'Backlay', casino_frame_origins: ['https://games.example.com'] } },
    });
    storeSession();
    renderApp(`/casino/mac88/game?url=${encodeURIComponent('https://games.example.com/play?t=1')}`);

    const frame = await screen.findByTitle('Casino game');
    expect(frame).toHaveAttribute('src', 'https://games.example.com/play?t=1');
    expect(screen.getByTestId('game-home-link')).toHaveAttribute('href', '#/casino/mac88');
    expect(screen.getByTestId('game-user-name')).toHaveTextContent('demo');
  });

  it('shows an error, never a frame, for any other address', async () => {
    stubServer(EMPTY_CATALOGUE);
    storeSession();
    renderApp(`/casino/mac88/game?url=${encodeURIComponent('https://evil.example.test/x')}`);

    expect(await screen.findByTestId('game-error')).toBeInTheDocument();
    expect(document.querySelector('iframe')).toBeNull();
  });
});

describe('world casino', () => {
  it('launches a game through gap/gaplogin and opens the game page', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/casino/getStaticGames': {
        data: [
          { game_id: 'g1', game_name: 'Aviator', category: 'Crash Games', provider_name: 'mac88', status: 'ACTIVE' },
          { game_id: 'g2', game_name: 'Old Game', category: 'Live', provider_name: 'mac88', status: '' },
        ],
      },
      'POST /api/gap/gaplogin': { data: { url: 'https://games.example.com/aviator' } },
    });
    storeSession();
    renderApp('/world-casino');

    await userEvent.click(await screen.findByText('Aviator'));
    expect(screen.queryByText('Old Game')).toBeNull();
    await waitFor(() => expect(window.location.hash).toBe(`#/casino/mac88/game?url=${encodeURIComponent('https://games.example.com/aviator')}`));
    expect(calls.find((c) => c.path === '/api/gap/gaplogin')?.body).toMatchObject({ providerName: 'mac88', gameId: 'g1', platformId: 'desktop', lobby: false });
  });

  it("toasts the server's message when a launch fails", async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'GET /api/casino/getStaticGames': { data: [{ game_id: 'g1', game_name: 'Aviator', category: 'Crash Games', provider_name: 'mac88', status: 'ACTIVE' }] },
      'POST /api/gap/gaplogin': { httpStatus: 422, message: 'Casino is closed for your account.' },
    });
    storeSession();
    renderApp('/world-casino');

    await userEvent.click(await screen.findByText('Aviator'));
    expect(await screen.findByText('Casino is closed for your account.')).toBeInTheDocument();
  });
});

/** yyyy-MM-dd as dd/mm/yyyy, written out here rather than with the code under test. */
function dayTextOf(key: string): string {
  const [y, m, d] = key.split('-');
  return `${d}/${m}/${y}`;
}
