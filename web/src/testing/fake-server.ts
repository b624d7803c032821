import { vi } from 'vitest';

/** One recorded call to the stubbed `fetch`. */
export interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

export type Answer = {
  httpStatus?: number;
  status?: boolean;
  message?: string;
  data?: unknown;
  /** A CSV download instead of the envelope: its text and the file name the server gives. */
  csv?: { text: string; fileName: string };
};
export type Answers = Record<string, Answer | ((call: Call) => Answer)>;

/**
 * Stubs `fetch` with answers keyed by "METHOD /api/path" and records each call. A call with
 * no answer gets `fallback` when given, else fails the test loudly instead of hanging.
 * (Unit tests stop at fetch: it is the edge of the browser's world.)
 */
export function stubServer(answers: Answers, fallback?: Answer): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      const call: Call = {
        method: init.method ?? 'GET',
        path: String(input),
        headers: new Headers(init.headers),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const answer = answers[`${call.method} ${call.path}`] ?? fallback;
      if (!answer) return Promise.reject(new Error(`unexpected call ${call.method} ${call.path}`));
      const { httpStatus = 200, status = httpStatus < 400, message = '', data = null, csv } =
        typeof answer === 'function' ? answer(call) : answer;
      if (csv) {
        return Promise.resolve(
          new Response(csv.text, {
            status: httpStatus,
            headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${csv.fileName}"` },
          }),
        );
      }
      return Promise.resolve(
        new Response(JSON.stringify({ status, message, data }), {
          status: httpStatus,
          headers: { 'Content-Type': 'application/json' },
        }),
      );
    }),
  );
  return calls;
}

/**
 * The body of the last call to `path`. A test that asks what the last request said names the
 * request: the balance, the notices and the session's summary are read on their own timers, and
 * on a loaded machine one of them may come after the request the test made.
 */
export function lastBodyTo(calls: Call[], path: string): unknown {
  const call = calls.filter((c) => c.path === path).at(-1);
  if (!call) throw new Error(`no call to ${path}; calls were: ${calls.map((c) => c.path).join(', ')}`);
  return call.body;
}

/** The catalogue answers every logged-in page asks for, empty unless overridden. */
export const EMPTY_CATALOGUE: Answers = {
  'GET /api/globalSetting/getGlobalSetting': { data: { site_title: 'Backlay', payment_gateway: 1, site_message: 'Hello bettors' } },
  'GET /api/user/getUserBalance': { data: { total_balance: 1500, liability: -20.5, available: 1479.5 } },
  'GET /api/user/preferences': { data: { one_click: false, one_click_stake: null, accept_rate_changes: 'exact' } },
  'GET /api/user/notices?page=1&limit=20': { data: { rows: [], total: 0, page: 1, limit: 20, unread: 0, last_read_id: 0 } },
  'POST /api/sport/getSports': { data: [] },
  'POST /api/series/getSeriesHeader': { data: [] },
  'POST /api/match/getMatches': { data: [] },
  'GET /api/bet/getExposureDetail': { data: { data: [] } },
  'GET /api/match/getCupsForMenu': { data: [] },
  'POST /api/series/getSeries': { data: [] },
  // Safer gambling: no limits, and a log-in that began just now (its first reality check an hour away).
  'GET /api/user/limits': { data: { limits: [], pending: [], left: [], operator_max_stake: null } },
  'GET /api/user/sessionSummary': () => ({ data: { started_at: new Date().toISOString(), net: 0, reality_check_minutes: 60, ends_at: null } }),
};
