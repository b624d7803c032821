import { vi } from 'vitest';

/** One recorded call to the stubbed `fetch`. */
export interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

type Answer = { httpStatus?: number; status?: boolean; message?: string; data?: unknown };

/**
 * Stubs `fetch` with answers keyed by "METHOD /api/path" and records each call.
 * A call with no answer fails the test loudly instead of hanging.
 * (Unit tests stop at fetch: it is the edge of the browser's world.)
 */
export function stubServer(answers: Record<string, Answer | ((call: Call) => Answer)>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const call: Call = {
        method: init.method ?? 'GET',
        path: input,
        headers: new Headers(init.headers),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const answer = answers[`${call.method} ${call.path}`];
      if (!answer) throw new Error(`unexpected call ${call.method} ${call.path}`);
      const { httpStatus = 200, status = httpStatus < 400, message = '', data = null } =
        typeof answer === 'function' ? answer(call) : answer;
      return new Response(JSON.stringify({ status, message, data }), {
        status: httpStatus,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}
