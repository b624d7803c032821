// Safer gambling's figures in the console's words (English only, as the whole console):
// "Loss: ₹2,000.00 a day", "Session: 30 minutes", "Self-excluded for 1 year".
import { formatIstDateTime, formatMoney } from '../../lib/format';
import type { BreakItem, LeftItem, LimitKind, LimitPeriod, PendingItem } from './api';

const KIND_NAME: Record<LimitKind, string> = { deposit: 'Deposit', loss: 'Loss', stake: 'Stake', session: 'Session' };
const KIND_ORDER: readonly LimitKind[] = ['loss', 'deposit', 'stake', 'session'];
const PERIOD_ORDER: readonly LimitPeriod[] = ['day', 'week', 'month'];
const THIS_PERIOD: Record<LimitPeriod, string> = { day: 'today', week: 'this week', month: 'this month' };

/** Limits in the panel's order: loss, deposit (each day, week, month), stake, session. */
export function byKindAndPeriod<T extends { kind: LimitKind; period: LimitPeriod | null }>(items: readonly T[]): T[] {
  const rank = (item: T) => KIND_ORDER.indexOf(item.kind) * 10 + (item.period ? PERIOD_ORDER.indexOf(item.period) : 0);
  return [...items].sort((a, b) => rank(a) - rank(b));
}

/** "30 minutes", "1 hour", "1 hour 30 minutes". */
export function minutesText(total: number): string {
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const minutes = Math.max(0, Math.round(total));
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return count(rest, 'minute');
  return rest === 0 ? count(hours, 'hour') : `${count(hours, 'hour')} ${count(rest, 'minute')}`;
}

/** "Loss: ₹2,000.00 a day", "Stake: ₹500.00 a bet", "Session: 30 minutes". */
export function limitText({ kind, period, value }: { kind: LimitKind; period: LimitPeriod | null; value: number }): string {
  if (kind === 'session') return `Session: ${minutesText(value)}`;
  const per = kind === 'stake' ? 'a bet' : `a ${period ?? 'day'}`;
  return `${KIND_NAME[kind]}: ${formatMoney(value)} ${per}`;
}

/** A limit with no value: "Loss a day", "Stake", "Session". */
function limitName(kind: LimitKind, period: LimitPeriod | null): string {
  return kind === 'deposit' || kind === 'loss' ? `${KIND_NAME[kind]} a ${period ?? 'day'}` : KIND_NAME[kind];
}

/** The change waiting: "Loss: ₹5,000.00 a day", or "Loss a day: to be removed" (value null). */
export function pendingText(item: PendingItem): string {
  return item.value === null ? `${limitName(item.kind, item.period)}: to be removed` : limitText({ ...item, value: item.value });
}

/** When a waiting change applies: only once its time has passed and the bettor confirms it. */
export function pendingWhen(item: PendingItem): string {
  const at = istText(item.effective_at);
  return item.confirmable ? `waiting since ${at} for the bettor to confirm it` : `from ${at}, once the bettor confirms it`;
}

/** "Can lose ₹1,240.00 more today", "Can deposit ₹0.00 more this week". */
export function leftText(item: LeftItem): string {
  const verb = item.kind === 'deposit' ? 'deposit' : 'lose';
  return `Can ${verb} ${formatMoney(item.value)} more ${THIS_PERIOD[item.period]}`;
}

const BREAK_PERIOD: Record<string, string> = {
  '24h': '24 hours',
  '48h': '48 hours',
  '7d': '7 days',
  '30d': '30 days',
  '6m': '6 months',
  '1y': '1 year',
  '3y': '3 years',
  '5y': '5 years',
};

/** "On a time-out of 7 days", "Self-excluded for 1 year". */
export function breakText(item: BreakItem): string {
  const length = BREAK_PERIOD[item.period] ?? item.period;
  return item.kind === 'self_exclusion' ? `Self-excluded for ${length}` : `On a time-out of ${length}`;
}

/** A time as the console shows it, said to be India's: "30/11/2026 14:30:00 IST". */
export function istText(iso: string): string {
  return `${formatIstDateTime(iso)} IST`;
}
