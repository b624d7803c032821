import { describe, expect, it, vi } from 'vitest';
import { stubServer } from '../testing/fake-server';
import { ApiError, apiGet, apiPost } from './client';

describe('api client', () => {
  it('sends the no-cache and bearer headers and returns the envelope', async () => {
    localStorage.setItem('usertoken', 'tok-123');
    const calls = stubServer({
      'GET /api/user/getUserBalance': { data: { total_balance: 10.5, liability: 0, available: 10.5 } },
    });

    const answer = await apiGet('user/getUserBalance');

    expect(answer).toEqual({
      status: true,
      message: '',
      data: { total_balance: 10.5, liability: 0, available: 10.5 },
    });
    expect(calls[0].headers.get('Cache-Control')).toBe('no-store, no-cache');
    expect(calls[0].headers.get('Authorization')).toBe('Bearer tok-123');
  });

  it('posts JSON and sends no Authorization header without a token', async () => {
    const calls = stubServer({ 'POST /api/user/login': { data: { token: 't' } } });

    await apiPost('/user/login', { user_name: 'demo', password: 'pw' });

    expect(calls[0].headers.get('Authorization')).toBeNull();
    expect(calls[0].headers.get('Content-Type')).toBe('application/json');
    expect(calls[0].body).toEqual({ user_name: 'demo', password: 'pw' });
  });

  it("turns an error answer into an ApiError carrying the server's status and message", async () => {
    stubServer({
      'POST /api/user/login': { httpStatus: 429, message: 'Too many attempts. Try again in a minute.' },
    });

    const error = await apiPost('user/login', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ httpStatus: 429, message: 'Too many attempts. Try again in a minute.' });
  });

  it('treats status false as an error even on HTTP 200', async () => {
    stubServer({ 'GET /api/x': { httpStatus: 200, status: false, message: 'No luck' } });

    await expect(apiGet('x')).rejects.toMatchObject({ httpStatus: 200, message: 'No luck' });
  });

  it('gives a readable message when the answer is not an envelope', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' })),
    );

    await expect(apiGet('x')).rejects.toMatchObject({
      httpStatus: 502,
      message: 'The server answered 502 Bad Gateway',
    });
  });
});
