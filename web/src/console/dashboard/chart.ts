// The house-result chart's geometry, apart from the drawing so it can be checked: one bar per
// day from a zero line, up for a day the house won, down for one it lost, all in paise.
import { toMinor } from '../../lib/money';
import type { DayResult } from './api';

export interface Bar {
  date: string;
  minor: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChartLayout {
  bars: Bar[];
  /** The y of the zero line. */
  zeroY: number;
  /** The largest win and loss the scale covers (paise, ≥ 0). */
  topMinor: number;
  bottomMinor: number;
}

/** Bars for `days` in a `width` × `height` box (a gap of a fifth of each slot between bars). */
export function layoutBars(days: readonly DayResult[], width: number, height: number): ChartLayout {
  const minors = days.map((day) => toMinor(day.house_result));
  const topMinor = Math.max(0, ...minors);
  const bottomMinor = Math.max(0, ...minors.map((m) => -m));
  const span = topMinor + bottomMinor || 1;
  const zeroY = (topMinor / span) * height;
  const slot = days.length ? width / days.length : width;
  const barWidth = slot * 0.8;
  const bars = days.map((day, index) => {
    const minor = minors[index];
    const barHeight = (Math.abs(minor) / span) * height;
    return {
      date: day.date,
      minor,
      x: index * slot + (slot - barWidth) / 2,
      y: minor >= 0 ? zeroY - barHeight : zeroY,
      width: barWidth,
      height: barHeight,
    };
  });
  return { bars, zeroY, topMinor, bottomMinor };
}
