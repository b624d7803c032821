// Safer gambling's calls (docs/api.md "Safer gambling"): the bettor's own limits, time-out and
// self-exclusion, the session's summary for the reality check, log-in history and live sessions.
//
// The request and answer types are written by hand, named after the contract, until the server's
// OpenAPI document has these calls (then `npm run gen:api` makes their twins in schema.ts and
// these become `Schemas[...]` aliases). Every call goes through the app's one client.
import { apiGet, apiPost, dataOr, type Answer } from '../../api/client';
import type { LimitKind, LimitPeriod, LimitsAnswer } from '../../api/limits';
import type { Page } from '../../api/page';

export {
  getLimits,
  LIMITS_KEY,
  type LimitInForce,
  type LimitKind,
  type LimitLeft,
  type LimitPeriod,
  type LimitsAnswer,
  type PendingLimit,
} from '../../api/limits';

/** `POST user/limits`: sets one limit (`value` null removes it); rupees, or minutes for `session`. `period` only for `deposit` and `loss`. */
export interface SetLimitRequest {
  kind: LimitKind;
  period?: LimitPeriod;
  value: number | null;
}

/** `POST user/confirmLimit`: `accept` true applies a waiting change once its time has come, false drops it. */
export interface ConfirmLimitRequest {
  kind: LimitKind;
  period?: LimitPeriod;
  accept: boolean;
}

/** Answers as `GET user/limits`, its message saying whether the change applies now or when it can be confirmed. */
export function setLimit(request: SetLimitRequest): Promise<Answer<LimitsAnswer>> {
  return apiPost<LimitsAnswer>('user/limits', request);
}

export function confirmLimit(request: ConfirmLimitRequest): Promise<Answer<LimitsAnswer>> {
  return apiPost<LimitsAnswer>('user/confirmLimit', request);
}

export const TIME_OUT_PERIODS = ['24h', '48h', '7d', '30d'] as const;
export type TimeOutPeriod = (typeof TIME_OUT_PERIODS)[number];
export const SELF_EXCLUSION_PERIODS = ['6m', '1y', '3y', '5y'] as const;
export type SelfExclusionPeriod = (typeof SELF_EXCLUSION_PERIODS)[number];

/** `POST user/timeOut` and `POST user/selfExclude` (the password is checked as log-in's is). */
export interface TimeOutRequest {
  period: TimeOutPeriod;
  password: string;
}
export interface SelfExcludeRequest {
  period: SelfExclusionPeriod;
  password: string;
}

/**
 * What both answer once every session of the bettor has ended (this one too): when it ends (an
 * ISO time like the contract's other `_at` times) and how many unmatched bets were cancelled.
 */
export interface BreakTaken {
  until: string;
  cancelled_bets: number;
}

export function takeTimeOut(request: TimeOutRequest): Promise<Answer<BreakTaken>> {
  return apiPost<BreakTaken>('user/timeOut', request);
}

export function selfExclude(request: SelfExcludeRequest): Promise<Answer<BreakTaken>> {
  return apiPost<BreakTaken>('user/selfExclude', request);
}

/**
 * `GET user/sessionSummary`: when this log-in started, the net of the bettor's settled play
 * since (rupees, won minus lost, after commission), the reality check's interval (minutes) and,
 * with a session limit, when this session ends (null without).
 */
export interface SessionSummary {
  started_at: string;
  net: number;
  reality_check_minutes: number;
  ends_at: string | null;
}

export const SESSION_SUMMARY_KEY = ['user', 'sessionSummary'] as const;

export async function getSessionSummary(): Promise<SessionSummary | null> {
  return dataOr(await apiGet<SessionSummary>('user/sessionSummary'), null);
}

export const LOGIN_RESULTS = ['ok', 'wrong_password', 'wrong_code', 'locked', 'timed_out', 'self_excluded'] as const;
export type LoginResult = (typeof LOGIN_RESULTS)[number];

/**
 * One log-in of `GET user/loginHistory` (newest first, kept a year); `device` as read from the
 * User-Agent ("Chrome 131 on Windows"); `ip` null when the server could not tell it.
 */
export interface LoginHistoryRow {
  at: string;
  ip: string | null;
  device: string;
  result: LoginResult;
}

export type LoginHistoryPage = Page<LoginHistoryRow>;
export const LOGIN_HISTORY_LIMIT = 20;

export async function getLoginHistory(page: number, limit = LOGIN_HISTORY_LIMIT): Promise<LoginHistoryPage> {
  const data = dataOr(await apiGet<LoginHistoryPage>(`user/loginHistory?page=${page}&limit=${limit}`), null);
  return data ?? { rows: [], total: 0, page, limit };
}

/** A live session of `GET user/sessions`; `current` marks the one making the call; `ip` as in {@link LoginHistoryRow}. */
export interface LiveSession {
  id: number;
  started_at: string;
  ip: string | null;
  device: string;
  kind: 'web' | 'bot';
  current: boolean;
}

export interface SessionsAnswer {
  sessions: LiveSession[];
}

export async function getSessions(): Promise<LiveSession[]> {
  return dataOr(await apiGet<SessionsAnswer>('user/sessions'), null)?.sessions ?? [];
}

/** `POST user/logoutOthers`: ends every other session of the caller; how many were ended. */
export interface LogoutOthersAnswer {
  ended: number;
}

export function logoutOthers(): Promise<Answer<LogoutOthersAnswer>> {
  return apiPost<LogoutOthersAnswer>('user/logoutOthers', {});
}
