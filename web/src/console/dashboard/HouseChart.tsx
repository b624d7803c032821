// The house result by day as bars drawn in SVG (no chart library: a few rectangles and labels).
import { dayText } from '../../features/reports/DateRange';
import { formatMinorMoney } from '../../lib/format';
import type { DayResult } from './api';
import { layoutBars } from './chart';

const WIDTH = 600;
const HEIGHT = 160;
/** Room left of the bars for the scale's labels, and below them for the dates. */
const LEFT = 90;
const BOTTOM = 20;

export function HouseChart({ days }: { days: readonly DayResult[] }) {
  const layout = layoutBars(days, WIDTH - LEFT, HEIGHT - BOTTOM);
  const first = days[0]?.date;
  const last = days.at(-1)?.date;
  return (
    <figure className="dash-chart" data-testid="dashboard-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="House result by day">
        <text x={LEFT - 6} y={10} textAnchor="end" className="dash-chart-label">{formatMinorMoney(layout.topMinor)}</text>
        <text x={LEFT - 6} y={HEIGHT - BOTTOM} textAnchor="end" className="dash-chart-label">{formatMinorMoney(-layout.bottomMinor)}</text>
        <g transform={`translate(${LEFT} 0)`}>
          {layout.bars.map((bar) => (
            <rect
              key={bar.date}
              x={bar.x}
              y={bar.y}
              width={bar.width}
              height={Math.max(bar.height, bar.minor === 0 ? 0 : 1)}
              className={bar.minor >= 0 ? 'dash-bar win' : 'dash-bar lose'}
              data-testid="dashboard-bar"
            >
              <title>{`${dayText(bar.date)}: ${formatMinorMoney(bar.minor)}`}</title>
            </rect>
          ))}
          <line x1={0} x2={WIDTH - LEFT} y1={layout.zeroY} y2={layout.zeroY} className="dash-zero" />
        </g>
        {first && <text x={LEFT} y={HEIGHT - 4} className="dash-chart-label">{dayText(first)}</text>}
        {last && last !== first && <text x={WIDTH} y={HEIGHT - 4} textAnchor="end" className="dash-chart-label">{dayText(last)}</text>}
      </svg>
      <figcaption className="muted small">House result by day (positive: the house won).</figcaption>
    </figure>
  );
}
