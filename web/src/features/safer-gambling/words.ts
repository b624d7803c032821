// How safer gambling's figures read: a limit's name, its value (rupees, or minutes for a
// session), a length of time. In the language of the moment, as lib/format writes money and dates.
import { i18n } from '../../i18n';
import { formatMoney } from '../../lib/format';
import type { LimitKind, LimitPeriod } from './api';

/** The limits a bettor can set, in the order the page lists them. */
export const LIMIT_SLOTS = [
  { id: 'deposit_day', kind: 'deposit', period: 'day' },
  { id: 'deposit_week', kind: 'deposit', period: 'week' },
  { id: 'deposit_month', kind: 'deposit', period: 'month' },
  { id: 'loss_day', kind: 'loss', period: 'day' },
  { id: 'loss_week', kind: 'loss', period: 'week' },
  { id: 'loss_month', kind: 'loss', period: 'month' },
  { id: 'stake', kind: 'stake', period: null },
  { id: 'session', kind: 'session', period: null },
] as const satisfies readonly { id: string; kind: LimitKind; period: LimitPeriod | null }[];

export type LimitSlot = (typeof LIMIT_SLOTS)[number];
export type SlotId = LimitSlot['id'];

/** Whether a limit the server lists is the one of `slot` (a period it leaves out is none). */
export function isSlot(slot: LimitSlot, limit: { kind: LimitKind; period?: LimitPeriod | null }): boolean {
  return limit.kind === slot.kind && (limit.period ?? null) === slot.period;
}

export function slotById(id: string): LimitSlot {
  return LIMIT_SLOTS.find((slot) => slot.id === id) ?? LIMIT_SLOTS[0];
}

/** "Loss per week", "Session length". */
export function limitName(slot: LimitSlot): string {
  return i18n.t(`safety:limits.name.${slot.id}`);
}

/** "45 min", "1 h 30 min". */
export function durationText(totalMinutes: number): string {
  const minutes = Math.max(0, Math.floor(totalMinutes));
  if (minutes < 60) return i18n.t('safety:duration.minutes', { minutes });
  return i18n.t('safety:duration.hoursMinutes', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** A limit's value as the bettor reads it: money, or a session's length. */
export function limitValueText(kind: LimitKind, value: number): string {
  return kind === 'session' ? durationText(value) : formatMoney(value);
}
