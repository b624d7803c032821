import { useTranslation } from 'react-i18next';
import { useIsNarrow } from '../../hooks/useIsNarrow';
import { formatIstDateTime, formatMoney } from '../../lib/format';
import type { PriceHistory } from './api';
import { formatOdds } from './ladder';
import { describeInterval, layoutChart } from './price-chart';

/** The drawing's box in SVG units: about the size it is shown at, so its labels read at their size. */
const WIDE = { width: 600, height: 260, volumeHeight: 60 };
const NARROW = { width: 300, height: 200, volumeHeight: 44 };
/** Room at the left for the price labels. */
const AXIS = 44;

/** Time of day at UTC+5:30 (HH:mm), for the time axis's ends. */
const clock = (at: string) => formatIstDateTime(at).slice(11, 16);

/**
 * A runner's price over time as a line (each interval's last traded price, placed by ladder
 * step) over the volume matched per interval as bars; plain SVG that scales to its box.
 */
export function PriceChart({ history }: { history: PriceHistory }) {
  const { t } = useTranslation('betting');
  const narrow = useIsNarrow();
  const { points, interval_s: intervalS } = history;
  if (points.length === 0) {
    return (
      <p className="empty-state" data-testid="chart-empty">
        {t('chart.empty')}
      </p>
    );
  }
  const box = narrow ? NARROW : WIDE;
  const layout = layoutChart(points, intervalS, box);
  const last = points[points.length - 1];
  const volume = points.reduce((sum, p) => sum + Math.round(p.volume * 100), 0) / 100;
  return (
    <figure className="price-chart" data-testid="price-chart">
      <svg viewBox={`${-AXIS} -8 ${box.width + AXIS + 8} ${box.height + 16}`} role="img" aria-label={t('chart.label', { from: formatOdds(Math.round(points[0].price * 100)), to: formatOdds(Math.round(last.price * 100)) })}>
        {layout.ticks.map((tick) => (
          <g key={tick.label} className="chart-tick">
            <line x1={0} x2={box.width} y1={tick.y} y2={tick.y} />
            <text x={-6} y={tick.y} dominantBaseline="middle" textAnchor="end">
              {tick.label}
            </text>
          </g>
        ))}
        {layout.bars.map((bar, i) => (
          <rect key={`v${i}`} className="chart-volume" x={bar.x} y={bar.y} width={bar.width} height={bar.height} data-testid="chart-bar">
            <title>{t('chart.barTitle', { time: formatIstDateTime(points[i].at), amount: formatMoney(bar.volume) })}</title>
          </rect>
        ))}
        <polyline className="chart-line" points={layout.line} data-testid="chart-line" />
        {layout.dots.map((dot) => (
          <circle key={dot.at} className="chart-dot" cx={dot.x} cy={dot.y} r={points.length > 60 ? 1.5 : 3}>
            <title>{`${formatIstDateTime(dot.at)}: ${formatOdds(Math.round(dot.price * 100))}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="chart-caption">
        <span data-testid="chart-from">{clock(points[0].at)}</span>
        <span>
          {t('chart.caption', { points: points.length, interval: describeInterval(intervalS), amount: formatMoney(volume) })}
        </span>
        <span data-testid="chart-to">{clock(last.at)}</span>
      </figcaption>
    </figure>
  );
}
