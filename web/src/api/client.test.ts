import { describe, expect, it, vi } from 'vitest';
import { refreshSession } from '../lib/session';
import { demoUser, storeSession } from '../testing/render';
import { stubServer } from '../testing/fake-server';
import { ApiError, apiGet, apiPost } from './client';

describe('api client', () => {
  it('sends the no-cache and bearer headers to /api and returns the envelope', async () => {
    localStorage.setItem('usertoken', 'tok-123');
    const calls = stubServer({
      'GET /api/user/getUserBalance': { data: { total_balance: 10.5, liability: 0, available: 10.5 } },
    });

    const answer = await apiGet('user/getUserBalance');

    expect(answer).toEqual({ status: true, message: '', data: { total_balance: 10.5, liability: 0, available: 10.5 } });
    expect(calls[0].path).toBe('/api/user/getUserBalance');
    expect(calls[0].headers.get('Cache-Control')).toBe('no-store, no-cache');
    expect(calls[0].headers.get('Authorization')).toBe('Bearer tok-123');
  });

  it('posts JSON and sends no Authorization header without a token', async () => {
    const calls = stubServer({ 'POST /api/user/login': { data: { token: 't' } } });

    await apiPost('/user/login', { user_name: 'demo', password: 'pw' });

    expect(calls[0].headers.get('Authorization')).toBeNull();
    expect(calls[0].headers.get('Cache-Control')).toBe('no-store, no-cache');
    expect(calls[0].headers.get('Content-Type')).toBe('application/json');
    expect(calls[0].body).toEqual({ user_name: 'demo', password: 'pw' });
  });

  it.each([401, 403])('logs out on %i, clears the spec keys and swallows the error', async (httpStatus) => {
    storeSession();
    localStorage.setItem('globalData', '{"site_title":"Backlay"}');
    localStorage.setItem('openWelcomePopup', 'true');
    sessionStorage.setItem('exposureBalance', '{"total_balance":1}');
    stubServer({ 'POST /api/match/getMatches': { httpStatus, message: 'Session expired' } });

    const answer = await apiPost('match/getMatches', {});

    expect(answer).toEqual({ status: false, message: 'Session expired', data: null, sessionEnded: true });
    for (const key of ['userinfo', 'usertoken', 'logedIn', 'parent_id']) expect(localStorage.getItem(key)).toBeNull();
    expect(sessionStorage.getItem('exposureBalance')).toBeNull();
    // What the spec does not list stays.
    expect(localStorage.getItem('globalData')).not.toBeNull();
    expect(window.location.hash).toBe('#/login');
  });

  it('passes a 403 on to the caller when there is no session to end', async () => {
    stubServer({ 'POST /api/user/login': { httpStatus: 403, message: 'Not for you.' } });

    await expect(apiPost('user/login', {})).rejects.toMatchObject({ httpStatus: 403, message: 'Not for you.' });
  });

  it.each([
    [409, 'bet/placeBet', 'Odds changed: the back rate on Home is now 46.'],
    [422, 'payment/deposit', 'Deposits and withdrawals are turned off on this site.'],
    [422, 'bet/placeBet', 'This account cannot bet.'],
    [422, 'casino/placeBet', 'Insufficient funds: 12.00 available.'],
  ])('passes a %i refusal of %s on with its message and keeps the session', async (httpStatus, path, message) => {
    storeSession();
    stubServer({ [`POST /api/${path}`]: { httpStatus, message } });

    await expect(apiPost(path, {})).rejects.toMatchObject({ httpStatus, message });
    expect(localStorage.getItem('usertoken')).not.toBeNull();
    expect(window.location.hash).not.toBe('#/login');
  });

  it('shows a locked account at log-in as the server words it, even beside a stale session', async () => {
    storeSession();
    stubServer({ 'POST /api/user/login': { httpStatus: 422, message: 'This account is locked. Contact your agent.' } });

    await expect(apiPost('user/login', {})).rejects.toMatchObject({ httpStatus: 422, message: 'This account is locked. Contact your agent.' });
    expect(localStorage.getItem('usertoken')).not.toBeNull();
  });

  it('passes other errors on with the server status, message and field errors', async () => {
    storeSession();
    stubServer({
      'POST /api/user/changePassword': {
        httpStatus: 400,
        message: 'Check the fields.',
        data: { errors: { master_password: 'Current password is incorrect.' } },
      },
    });

    const error = await apiPost('user/changePassword', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).httpStatus).toBe(400);
    expect((error as ApiError).fieldErrors).toEqual({ master_password: 'Current password is incorrect.' });
    expect(localStorage.getItem('usertoken')).toBe('tok-demo');
  });

  it('treats status false as an error even on HTTP 200', async () => {
    stubServer({ 'GET /api/x': { httpStatus: 200, status: false, message: 'No luck' } });

    await expect(apiGet('x')).rejects.toMatchObject({ httpStatus: 200, message: 'No luck' });
  });

  it('gives a readable message when the answer is not an envelope', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }))));

    await expect(apiGet('x')).rejects.toMatchObject({ httpStatus: 502, message: 'The server answered 502 Bad Gateway' });
  });

  it('sends a user who must change the password there before a request, and does not send it', async () => {
    storeSession({ ...demoUser, is_change_password: 1 });
    const calls = stubServer({ 'GET /api/user/getUserBalance': { data: { total_balance: 0, liability: 0 } } });

    await expect(apiPost('match/getMatches', {})).rejects.toMatchObject({ httpStatus: 428 });
    expect(calls).toHaveLength(0);
    expect(window.location.hash).toBe('#/setting/change-password');

    // The balance and the password change itself still go out.
    await apiGet('user/getUserBalance');
    expect(calls).toHaveLength(1);
  });

  it('on a 428 marks the stored user as having to change the password and goes there', async () => {
    storeSession();
    stubServer({ 'GET /api/user/getButtonValue': { httpStatus: 428, message: 'Change your password first.' } });

    await expect(apiGet('user/getButtonValue')).rejects.toMatchObject({ httpStatus: 428 });
    refreshSession();
    expect((JSON.parse(localStorage.getItem('userinfo')!) as { is_change_password: number }).is_change_password).toBe(1);
    expect(window.location.hash).toBe('#/setting/change-password');
  });
});

describe('console clearing', () => {
  it('clears the console 1115000 ms after the last request', async () => {
    vi.useFakeTimers();
    try {
      const clear = vi.spyOn(console, 'clear').mockImplementation(() => undefined);
      stubServer({ 'GET /api/x': { data: 1 } });
      await apiGet('x');
      vi.advanceTimersByTime(1_000_000);
      await apiGet('x');
      vi.advanceTimersByTime(1_114_999);
      expect(clear).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(clear).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
