// When the reality check comes: every `reality_check_minutes` from the moment this log-in began
// (the server's `started_at`), so a reload or a second tab keeps the same schedule. Example: a
// log-in at 10:00 with a 45-minute interval is reminded at 10:45, 11:30, 12:15 …; a page loaded
// at 11:10 waits for 11:30.

const MINUTE_MS = 60_000;
/** The longest wait setTimeout takes (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The first reminder after `nowMs` (epoch ms) for a log-in that began at `startedMs`. */
export function nextReminderAtMs(startedMs: number, intervalMinutes: number, nowMs: number): number {
  const intervalMs = intervalMinutes * MINUTE_MS;
  const passed = Math.max(0, Math.floor((nowMs - startedMs) / intervalMs));
  return startedMs + (passed + 1) * intervalMs;
}

/** Whole minutes from `startedMs` to `atMs` (never below 0). */
export function minutesBetween(startedMs: number, atMs: number): number {
  return Math.max(0, Math.floor((atMs - startedMs) / MINUTE_MS));
}

/** A wait for setTimeout: not below 0, not past what it can hold. */
export function timerDelayMs(untilMs: number, nowMs: number): number {
  return Math.min(Math.max(0, untilMs - nowMs), MAX_TIMER_MS);
}
