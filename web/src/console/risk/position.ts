// The market analysis's arithmetic on the server's figures, kept pure for the unit tests: the
// colour of a P&L, the fancy's run ladder around the lines, and the refetch throttle that keeps
// a busy stream from asking for the analysis more than about once a second.
import { toMinor } from '../../lib/money';
import type { FancyRange } from './api';

// Re-exported for the unit tests that check the paise this module compares.
export { toMinor };

/** 'win' (green) when the house is up on the outcome, 'lose' (red) when down, '' at zero. */
export function pnlClass(minor: number): 'win' | 'lose' | '' {
  return minor > 0 ? 'win' : minor < 0 ? 'lose' : '';
}

/** One row of the run ladder: runs `from`..`to` (`to` null: and above). */
export interface LadderRow {
  from: number;
  to: number | null;
  pnlMinor: number;
}

/** The house's P&L (paise) if the innings ends on `runs`, from the server's ranges. */
export function pnlAt(ranges: readonly FancyRange[], runs: number): number {
  const range = ranges.find((r) => r.from <= runs && (r.to === null || runs <= r.to));
  return range ? toMinor(range.pnl) : 0;
}

/**
 * A short ladder around the lines, as a trader reads a fancy book: every run from `around`
 * below the lowest line to `around` above the highest, one row each, with everything below and
 * above folded into one row per side. Without lines (none offered), the ladder centres on the
 * ranges' own boundaries; without either, one row, 0 and above.
 */
export function runLadder(ranges: readonly FancyRange[], lines: readonly (number | null | undefined)[], around = 3): LadderRow[] {
  const marks = lines.filter((line): line is number => typeof line === 'number');
  if (marks.length === 0) marks.push(...ranges.filter((r) => r.from > 0).map((r) => r.from));
  if (marks.length === 0) return [{ from: 0, to: null, pnlMinor: pnlAt(ranges, 0) }];
  const low = Math.max(0, Math.min(...marks) - around);
  const high = Math.max(...marks) + around;
  const rows: LadderRow[] = [];
  if (low > 0) rows.push({ from: 0, to: low - 1, pnlMinor: pnlAt(ranges, low - 1) });
  for (let runs = low; runs <= high; runs += 1) rows.push({ from: runs, to: runs, pnlMinor: pnlAt(ranges, runs) });
  rows.push({ from: high + 1, to: null, pnlMinor: pnlAt(ranges, high + 1) });
  return rows;
}

/** "0–44", "48", "52 and above". */
export function ladderLabel(row: LadderRow): string {
  if (row.to === null) return `${row.from} and above`;
  return row.to === row.from ? String(row.from) : `${row.from}–${row.to}`;
}

/**
 * Runs `run` at most once per `intervalMs`: the first call runs at once, calls inside the
 * interval are folded into one run at its end. `cancel` drops a pending run.
 */
export function throttle(run: () => void, intervalMs: number, now: () => number = Date.now) {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    last = now();
    run();
  };
  return {
    call(this: void) {
      if (timer !== null) return;
      const wait = last + intervalMs - now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel(this: void) {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
