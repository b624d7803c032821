// The bettor's own limits (docs/api.md "Safer gambling", `GET user/limits`). The safer-gambling
// page sets them; the bet slips, the casino table and the deposit form only read what they leave
// (`left`), so the call, its answer and its cache key live here rather than in any one feature.
//
// Written by hand until the server's OpenAPI document (schema.ts) has these calls: the names
// follow the contract exactly, so each can be swapped for its generated twin.
import { apiGet, dataOr } from './client';

/** `deposit` and `loss` are per period; `stake` (one bet's) and `session` (minutes a log-in may last) are not. */
export type LimitKind = 'deposit' | 'loss' | 'stake' | 'session';
/** Calendar periods at IST: a day from midnight, a week from Monday, a month from the 1st. */
export type LimitPeriod = 'day' | 'week' | 'month';

/** A limit in force. `value` is rupees, or minutes for `session`; `period` null for `stake` and `session`. */
export interface LimitInForce {
  kind: LimitKind;
  period: LimitPeriod | null;
  value: number;
}

/**
 * A higher limit or a removal (`value` null) waiting: it can be confirmed once `confirmable`
 * (from `effective_at`, an ISO time); until then the one in force holds.
 */
export interface PendingLimit {
  kind: LimitKind;
  period: LimitPeriod | null;
  value: number | null;
  effective_at: string;
  confirmable: boolean;
}

/** For `loss` and `deposit` each: the smallest room under their limits (rupees, never below 0) and the period that binds. */
export interface LimitLeft {
  kind: 'loss' | 'deposit';
  period: LimitPeriod;
  value: number;
}

/** What `GET user/limits`, `POST user/limits` and `POST user/confirmLimit` answer. */
export interface LimitsAnswer {
  limits: LimitInForce[];
  pending: PendingLimit[];
  /** Absent entries: no limit of that kind. */
  left: LimitLeft[];
  /** The operator's tree-wide maximum stake (rupees), if set. */
  operator_max_stake: number | null;
}

export const LIMITS_KEY = ['user', 'limits'] as const;

/** The bettor's limits, or null when the session ended under the call. */
export async function getLimits(): Promise<LimitsAnswer | null> {
  return dataOr(await apiGet<LimitsAnswer>('user/limits'), null);
}
