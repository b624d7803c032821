import { useEffect, useState } from 'react';
import { isBettingOpen, msLeft, nextStepAtMs } from './table';
import type { TableNow } from './table-api';

/**
 * Whole seconds left of `inMs` (told by an answer that arrived at `receivedAtMs`, local clock),
 * re-rendering exactly when the shown second changes (not on a fixed tick), so it reads 0 at the
 * instant the time runs out. `inMs` null: nothing counts down (0).
 */
export function useSecondsTo(inMs: number | null, receivedAtMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (inMs === null) return undefined;
    const left = msLeft(inMs, receivedAtMs, Date.now());
    if (left <= 0) return undefined;
    // The next whole-second boundary of the time left (1 ms past it, so the ceiling flips).
    const timer = setTimeout(() => setNow(Date.now()), (left % 1000 || 1000) + 1);
    return () => clearTimeout(timer);
  }, [inMs, receivedAtMs, now]);
  if (inMs === null) return 0;
  // A tick older than this answer reads as "just arrived" (msLeft clamps).
  return Math.ceil(msLeft(inMs, receivedAtMs, Math.max(now, receivedAtMs)) / 1000);
}

/** Seconds of betting left on the table (0 unless the server said betting). */
export function useSecondsLeft(table: TableNow | null | undefined): number {
  return useSecondsTo(table?.status === 'betting' ? table.close_in_ms : null, table?.received_at_ms ?? 0);
}

/** Seconds until the next round opens, while a result is shown. */
export function useNextRoundSeconds(table: TableNow): number {
  return useSecondsTo(table.status === 'result' ? table.next_round_in_ms : null, table.received_at_ms);
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

/**
 * How far apart the cards turn up while a page catches up with the deal: when it falls behind
 * (a timer that fired late on a busy device, an answer that came late), the cards it missed
 * still come one at a time, this far apart, rather than several at once.
 */
export const CATCH_UP_CARD_MS = 250;

/**
 * While the table deals: the ms since the deal began by the local clock (the server's count at
 * its answer plus the time since), re-rendering when the next card is due, so every page shows
 * each card at the moment the server's timeline says. A page that first sees the deal under way
 * shows the cards dealt so far at once; after that it shows at most one card more per render
 * (CATCH_UP_CARD_MS). Null when not dealing.
 */
export function useDealElapsed(table: TableNow): number | null {
  const dealing = table.status === 'dealing' ? table.dealing : null;
  const [now, setNow] = useState(() => Date.now());
  // How far into which round's deal the page showed at its last card.
  const [shown, setShown] = useState<{ round: string | null; ms: number } | null>(null);
  const round = table.round_id;
  const clock = dealing ? dealing.elapsed_ms + Math.max(0, Math.max(now, table.received_at_ms) - table.received_at_ms) : null;
  // Once this deal has been shown, no further than the card after the last one shown.
  const due = dealing && shown?.round === round ? nextStepAtMs(dealing, shown.ms) : null;
  const elapsed = clock !== null && due !== null ? Math.min(clock, due) : clock;
  useEffect(() => {
    if (!dealing || elapsed === null || clock === null) return undefined;
    const next = nextStepAtMs(dealing, elapsed);
    if (next === null) return undefined;
    const behind = next <= clock;
    const timer = setTimeout(
      () => {
        setShown({ round, ms: elapsed });
        setNow(Date.now());
      },
      behind ? CATCH_UP_CARD_MS : next - clock + 1,
    );
    return () => clearTimeout(timer);
  }, [dealing, elapsed, clock, round]);
  return elapsed;
}
