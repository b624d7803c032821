// The one API client. Every call to the Backlay server goes through here, so the headers,
// the envelope, the session rules (401/403 end it, 428 and is_change_password force the
// password change) and the error shape are handled in one place.
import {
  CHANGE_PASSWORD_PATH,
  clearSession,
  goTo,
  isLoggedIn,
  markMustChangePassword,
  mustChangePassword,
} from '../lib/session';
import { LOCAL_KEYS } from '../lib/storage';
import { i18n } from '../i18n';
import { refusalWords } from './refusal-words';

/** A successful answer from `/api` (see shared/design/API.md). */
export interface Envelope<T> {
  status: true;
  message: string;
  data: T;
}

/**
 * What a call answers when the server refused the session (401/403): the session has been
 * ended and the login page opened; spec §8 has the error swallowed and returned as a value.
 */
export interface SessionEnded {
  status: false;
  message: string;
  data: null;
  sessionEnded: true;
}

export type Answer<T> = Envelope<T> | SessionEnded;

/** A failed call: the HTTP status (0 when the server was not reached) and a message a person can read. */
export class ApiError extends Error {
  readonly httpStatus: number;
  /** The envelope's `data`, e.g. `{errors: {field: message}}` on a 400. */
  readonly data: unknown;

  constructor(httpStatus: number, message: string, data: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.httpStatus = httpStatus;
    this.data = data;
  }

  /** The server's per-field messages of a 400 (`data.errors`), or an empty map. */
  get fieldErrors(): Record<string, string> {
    const errors = (this.data as { errors?: unknown } | null)?.errors;
    return errors && typeof errors === 'object' ? (errors as Record<string, string>) : {};
  }
}

export const API_BASE = '/api';

/** localStorage key of the session token (the name the product has always used). */
export const TOKEN_STORAGE_KEY = LOCAL_KEYS.token;

/** Calls a user who must change the password may still make (the server answers 428 to the rest). */
const ALLOWED_BEFORE_PASSWORD_CHANGE = new Set([
  'user/changePassword',
  'user/logout',
  'user/getUserBalance',
  'globalSetting/getGlobalSetting',
]);

/** Spec §9: the console is cleared 1,115,000 ms after each request (the timer restarts with each one). */
export const CONSOLE_CLEAR_AFTER_MS = 1_115_000;
let consoleClearTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleConsoleClear(): void {
  if (consoleClearTimer !== undefined) clearTimeout(consoleClearTimer);
  consoleClearTimer = setTimeout(() => {
    consoleClearTimer = undefined;
    console.clear();
  }, CONSOLE_CLEAR_AFTER_MS);
}

export function apiGet<T>(path: string): Promise<Answer<T>> {
  return request<T>('GET', path);
}

export function apiPost<T>(path: string, body: unknown = {}): Promise<Answer<T>> {
  return request<T>('POST', path, body);
}

/** A file's bytes as the body (`admin/upload/image?name=…`), with the same headers and answers as any call. */
export function apiPostFile<T>(path: string, file: Blob): Promise<Answer<T>> {
  return request<T>('POST', path, file);
}

/** The data of an answer, or `fallback` when the session ended under the call. */
export function dataOr<T, F>(answer: Answer<T>, fallback: F): T | F {
  return answer.status ? answer.data : fallback;
}

/** Sends a call with the headers every call carries; throws only when the server cannot be reached. */
async function send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
  const cleanPath = path.replace(/^\/+/, '');
  // Spec §2: a user who must change the password is sent there before each outgoing request.
  if (mustChangePassword() && !ALLOWED_BEFORE_PASSWORD_CHANGE.has(cleanPath)) {
    goTo(CHANGE_PASSWORD_PATH);
    throw new ApiError(428, i18n.t('common:api.changePasswordFirst'));
  }

  const headers: Record<string, string> = {
    // Balances and books change every second; no cache may answer for the server.
    'Cache-Control': 'no-store, no-cache',
  };
  const token = localStorage.getItem(TOKEN_STORAGE_KEY);
  // Without a token (login page, global settings) send no header rather than "Bearer null".
  if (token) headers.Authorization = `Bearer ${token}`;
  const raw = body instanceof Blob;
  if (body !== undefined) headers['Content-Type'] = raw ? 'application/octet-stream' : 'application/json';

  scheduleConsoleClear();
  try {
    return await fetch(`${API_BASE}/${cleanPath}`, {
      method,
      headers,
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, i18n.t('common:api.unreachable'));
  }
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer<T>> {
  return answerOf<T>(await send(method, path, body));
}

/** An answer read as the envelope, with the session rules every call keeps. */
async function answerOf<T>(response: Response): Promise<Answer<T>> {
  const envelope = await readEnvelope(response);
  const message = envelope?.message || i18n.t('common:api.answered', { status: response.status, statusText: response.statusText }).trim();

  // Spec §8: 401/403 log the user out and the error is swallowed, so the server keeps 403 for
  // what ends a session; a refusal to show (payments off, a locked account at log-in, a bet
  // refused) is a 409 or 422 and reaches the caller with its message. Without a session
  // there is nothing to end: the caller then sees even a 401/403.
  if ((response.status === 401 || response.status === 403) && isLoggedIn()) {
    clearSession();
    return { status: false, message, data: null, sessionEnded: true };
  }
  if (response.status === 428) {
    markMustChangePassword();
    goTo(CHANGE_PASSWORD_PATH);
  }
  if (!response.ok || !envelope || envelope.status !== true) {
    const data = envelope?.data ?? null;
    throw new ApiError(response.status, refusalWords(data) ?? message, data);
  }
  return envelope as Envelope<T>;
}

/** A CSV download: the file's text and the name the server gave it. */
export interface CsvFile {
  text: string;
  fileName: string;
}

/**
 * A list or report as CSV: the same call and filters with `format: 'csv'` (crates/server/src/api/
 * export.rs). A refusal (a bad filter, an ended session) is answered as any call's is.
 */
export async function apiDownloadCsv(path: string, body: Record<string, unknown>): Promise<CsvFile | SessionEnded> {
  const response = await send('POST', path, { ...body, format: 'csv' });
  if (response.ok && (response.headers.get('Content-Type') ?? '').startsWith('text/csv')) {
    const named = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '');
    return { text: await response.text(), fileName: named?.[1] ?? 'download.csv' };
  }
  const answer = await answerOf<unknown>(response);
  if ('sessionEnded' in answer) return answer;
  throw new ApiError(response.status, i18n.t('common:api.notCsv'));
}

/** The body as an envelope, or null when it is not one (e.g. a proxy's HTML error page). */
async function readEnvelope(response: Response): Promise<{ status: unknown; message?: string; data?: unknown } | null> {
  try {
    const parsed: unknown = await response.json();
    if (parsed !== null && typeof parsed === 'object' && 'status' in parsed) {
      return parsed;
    }
  } catch {
    // Not JSON: fall through.
  }
  return null;
}

/** The message to show a person for any error thrown while calling the API. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : i18n.t('common:toast.failed');
}
