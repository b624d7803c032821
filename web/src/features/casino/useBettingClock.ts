import { useEffect, useState } from 'react';
import { isBettingOpen, msLeft } from './table';
import type { TableNow } from './table-api';

/**
 * Seconds of betting left on the table, re-rendering exactly when the shown second changes
 * (not on a fixed tick), so the countdown reads 0 at the instant betting closes.
 */
export function useSecondsLeft(table: TableNow | null | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  const betting = table?.status === 'betting';
  useEffect(() => {
    if (!table || !betting) return undefined;
    const left = msLeft(table.close_in_ms, table.received_at_ms, Date.now());
    if (left <= 0) return undefined;
    // The next whole-second boundary of the time left (1 ms past it, so the ceiling flips).
    const timer = setTimeout(() => setNow(Date.now()), (left % 1000 || 1000) + 1);
    return () => clearTimeout(timer);
  }, [table, betting, now]);
  if (!table || !betting) return 0;
  // A tick older than this answer reads as "just arrived" (msLeft clamps).
  return Math.ceil(msLeft(table.close_in_ms, table.received_at_ms, Math.max(now, table.received_at_ms)) / 1000);
}

/**
 * True while the table takes bets: the server said "betting" and, by the local clock, the window
 * has not run out since that answer. Re-renders once, at the close.
 */
export function useBettingOpen(table: TableNow | null | undefined): boolean {
  const [closedAnswer, setClosedAnswer] = useState<number | null>(null);
  useEffect(() => {
    if (!table || table.status !== 'betting') return undefined;
    const left = msLeft(table.close_in_ms, table.received_at_ms, Date.now());
    const timer = setTimeout(() => setClosedAnswer(table.received_at_ms), left);
    return () => clearTimeout(timer);
  }, [table]);
  if (!table) return false;
  if (closedAnswer === table.received_at_ms) return false;
  return isBettingOpen(table, table.received_at_ms, table.received_at_ms);
}
