// The price chart's geometry, apart from the drawing so it can be checked: the runner's last
// traded price per interval as a line, and the volume matched in each interval as bars under it.
// Prices are placed by their ladder step, not their value, as exchanges draw them: 1.01 → 1.02
// is as tall as 10 → 10.5, so a move of one tick looks the same anywhere on the ladder.
import { i18n } from '../../i18n';
import { formatOdds, LADDER } from './ladder';
import type { PricePoint } from './api';

export interface ChartBox {
  width: number;
  height: number;
  /** The bottom part of the height that holds the volume bars. */
  volumeHeight: number;
}

export interface ChartDot {
  x: number;
  y: number;
  price: number;
  at: string;
}

export interface ChartBar {
  x: number;
  y: number;
  width: number;
  height: number;
  volume: number;
}

export interface ChartLayout {
  /** The line's points, "x,y x,y …" as an SVG polyline takes them. */
  line: string;
  dots: ChartDot[];
  bars: ChartBar[];
  /** Ladder prices to label on the price axis, with their y. */
  ticks: { y: number; label: string }[];
}

/** Room above and below the line, in ladder steps, so neither end sits on the edge. */
const STEP_MARGIN = 1;
const MOST_TICKS = 5;

/** A price's index on the ladder (its nearest step, should one ever fall between). */
export function ladderStep(price: number): number {
  const hundredths = Math.round(price * 100);
  const exact = LADDER.indexOf(hundredths);
  if (exact >= 0) return exact;
  const above = LADDER.findIndex((p) => p > hundredths);
  return above < 0 ? LADDER.length - 1 : Math.max(0, above - 1);
}

/**
 * The chart of `points` (oldest first, each the start of an interval of `intervalS` seconds) in
 * a box: time runs left to right from the first interval's start to the last one's end, the
 * price by ladder step from the lowest (bottom of the price area) to the highest (top).
 */
export function layoutChart(points: readonly PricePoint[], intervalS: number, box: ChartBox): ChartLayout {
  if (points.length === 0) return { line: '', dots: [], bars: [], ticks: [] };
  const priceHeight = box.height - box.volumeHeight;
  const times = points.map((p) => Date.parse(p.at));
  const start = times[0];
  const end = times[times.length - 1] + intervalS * 1000;
  const span = end - start || 1;
  const xOf = (time: number) => ((time - start) / span) * box.width;
  const slot = (intervalS * 1000 * box.width) / span;

  const steps = points.map((p) => ladderStep(p.price));
  const low = Math.max(0, Math.min(...steps) - STEP_MARGIN);
  const high = Math.min(LADDER.length - 1, Math.max(...steps) + STEP_MARGIN);
  const yOf = (step: number) => ((high - step) / (high - low)) * priceHeight;

  // Each price at the middle of its interval.
  const dots = points.map((p, i) => ({ x: xOf(times[i]) + slot / 2, y: yOf(steps[i]), price: p.price, at: p.at }));
  const most = Math.max(...points.map((p) => p.volume)) || 1;
  const barWidth = Math.max(1, slot * 0.8);
  const bars = points.map((p, i) => {
    const height = (p.volume / most) * box.volumeHeight;
    return { x: xOf(times[i]) + (slot - barWidth) / 2, y: box.height - height, width: barWidth, height, volume: p.volume };
  });

  const count = Math.min(MOST_TICKS, high - low + 1);
  const ticks = Array.from({ length: count }, (_, i) => {
    const step = count === 1 ? low : Math.round(low + ((high - low) * i) / (count - 1));
    return { y: yOf(step), label: formatOdds(LADDER[step]) };
  });
  return { line: dots.map((d) => `${round(d.x)},${round(d.y)}`).join(' '), dots, bars, ticks };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** An interval's length in words: 15 s, 2 min, 1 h, 3 days. */
export function describeInterval(seconds: number): string {
  if (seconds % 86_400 === 0) return i18n.t('betting:chart.days', { count: seconds / 86_400 });
  if (seconds % 3_600 === 0) return i18n.t('betting:chart.hours', { n: seconds / 3_600 });
  if (seconds % 60 === 0) return i18n.t('betting:chart.minutes', { n: seconds / 60 });
  return i18n.t('betting:chart.seconds', { n: seconds });
}
