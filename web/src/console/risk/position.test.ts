import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ladderLabel, pnlAt, pnlClass, runLadder, throttle, toMinor } from './position';

// The house's book of the API test's admin view: 0–47 +30.00, 48 +70.00, 49 and above −30.00.
const ranges = [
  { from: 0, to: 47, pnl: 30 },
  { from: 48, to: 48, pnl: 70 },
  { from: 49, to: null, pnl: -30 },
];

describe('position colouring', () => {
  it('is green where the house wins, red where it loses, plain at zero', () => {
    expect(pnlClass(1)).toBe('win');
    expect(pnlClass(-1)).toBe('lose');
    expect(pnlClass(0)).toBe('');
    expect(pnlClass(toMinor(-0.004))).toBe('');
    expect(toMinor(0.1 + 0.2)).toBe(30);
  });
});

describe('run ladder', () => {
  it('reads the P&L of a run total from its range', () => {
    expect(pnlAt(ranges, 0)).toBe(3000);
    expect(pnlAt(ranges, 47)).toBe(3000);
    expect(pnlAt(ranges, 48)).toBe(7000);
    expect(pnlAt(ranges, 400)).toBe(-3000);
    expect(pnlAt([], 10)).toBe(0);
  });

  it('lists each run around the lines and folds the rest into one row per side', () => {
    const ladder = runLadder(ranges, [48, 49], 2);
    expect(ladder.map(ladderLabel)).toEqual(['0–45', '46', '47', '48', '49', '50', '51', '52 and above']);
    expect(ladder.map((row) => row.pnlMinor)).toEqual([3000, 3000, 3000, 7000, -3000, -3000, -3000, -3000]);
  });

  it('never goes below zero runs and centres on the book when no line is offered', () => {
    expect(runLadder(ranges, [1], 3).map(ladderLabel)).toEqual(['0', '1', '2', '3', '4', '5 and above']);
    const centred = runLadder(ranges, [null, undefined], 1);
    expect(centred.map(ladderLabel)).toEqual(['0–46', '47', '48', '49', '50', '51 and above']);
    expect(runLadder([{ from: 0, to: null, pnl: 0 }], [])).toEqual([{ from: 0, to: null, pnlMinor: 0 }]);
  });
});

describe('refetch throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then folds a burst into one run a second later', () => {
    const run = vi.fn();
    const limited = throttle(run, 1000);
    limited.call();
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i += 1) {
      vi.advanceTimersByTime(50);
      limited.call();
    }
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(500);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(2);
    limited.call();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('drops a pending run when cancelled', () => {
    const run = vi.fn();
    const limited = throttle(run, 1000);
    limited.call();
    limited.call();
    limited.cancel();
    vi.advanceTimersByTime(2000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
