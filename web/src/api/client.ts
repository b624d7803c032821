// The one API client. Every call to the Backlay server goes through here, so
// the headers, the envelope and the error shape are handled in one place.

/** Every answer from `/api` has this shape (see shared/design/API.md). */
export interface Envelope<T> {
  status: boolean;
  message: string;
  data: T;
}

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
}

const API_BASE = '/api';

/** localStorage key of the session token (the name the product has always used). */
export const TOKEN_STORAGE_KEY = 'usertoken';

export function apiGet<T>(path: string): Promise<Envelope<T>> {
  return request<T>('GET', path);
}

export function apiPost<T>(path: string, body: unknown): Promise<Envelope<T>> {
  return request<T>('POST', path, body);
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Envelope<T>> {
  const headers: Record<string, string> = {
    // Balances and books change every second; no cache may answer for the server.
    'Cache-Control': 'no-store, no-cache',
  };
  const token = localStorage.getItem(TOKEN_STORAGE_KEY);
  // Without a token (login page, global settings) send no header rather than "Bearer null".
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path.replace(/^\/+/, '')}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'Could not reach the server. Check your connection and try again.');
  }

  const envelope = await readEnvelope<T>(response);
  if (!response.ok || !envelope || envelope.status !== true) {
    throw new ApiError(
      response.status,
      envelope?.message || `The server answered ${response.status} ${response.statusText}`.trim(),
      envelope?.data ?? null,
    );
  }
  return envelope;
}

/** The body as an envelope, or null when it is not one (e.g. a proxy's HTML error page). */
async function readEnvelope<T>(response: Response): Promise<Envelope<T> | null> {
  try {
    const parsed: unknown = await response.json();
    if (parsed !== null && typeof parsed === 'object' && 'status' in parsed) {
      return parsed as Envelope<T>;
    }
  } catch {
    // Not JSON: fall through.
  }
  return null;
}

/** The message to show a person for any error thrown while calling the API. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
}
