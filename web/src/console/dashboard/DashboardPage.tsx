import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { dataOr } from '../../api/client';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { DateRangeFilter, dayText } from '../../features/reports/DateRange';
import { formatMoney, istDateKey, shiftDateKey } from '../../lib/format';
import { useSession } from '../../lib/session';
import { consoleRole } from '../nav';
import { EmptyRow } from '../TableParts';
import { dashboardKeys, getDashboard, type Dashboard, type DashboardPeriod } from './api';
import { HouseChart } from './HouseChart';
import { SystemCard } from './SystemCard';
import { Tiles, type Tile } from './Tiles';
import './dashboard.css';

/** How often the figures are read again while the page is open. */
const REFRESH_MS = 5_000;

/** The period ending today that is `days` long. */
export function lastDays(days: number): DashboardPeriod {
  const today = istDateKey();
  return { from_date: shiftDateKey(today, -(days - 1)), to_date: today };
}

const PRESETS = [
  { days: 1, label: 'Today' },
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
] as const;

/**
 * `#/console/dashboard`, the console's landing page: the business of the caller's branch today
 * or over a chosen period. Each figure is the total of a report (server: api/dashboard.rs);
 * beside them, how many of the branch's accounts have limits of their own, are on a time-out or
 * are self-excluded now. An admin sees this server's own figures below them (SystemCard).
 */
export function DashboardPage() {
  const isAdmin = consoleRole(useSession()) === 'admin';
  const [period, setPeriod] = useState<DashboardPeriod>(() => lastDays(1));
  const query = useQuery({
    queryKey: dashboardKeys.period(period),
    queryFn: async () => dataOr(await getDashboard(period), null),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const figures = query.data;
  return (
    <PageCard title="Dashboard" testId="dashboard-page">
      <div className="dash-periods">
        {PRESETS.map((preset) => {
          const value = lastDays(preset.days);
          const active = value.from_date === period.from_date && value.to_date === period.to_date;
          return (
            <button key={preset.days} type="button" className={active ? 'btn btn-sm btn-primary' : 'btn btn-sm'} onClick={() => setPeriod(value)} data-testid={`dashboard-preset-${preset.days}`}>
              {preset.label}
            </button>
          );
        })}
      </div>
      <DateRangeFilter key={`${period.from_date}/${period.to_date}`} initial={period} onApply={setPeriod} />
      <QueryState isPending={query.isPending} error={query.error}>
        {figures && <Figures figures={figures} />}
      </QueryState>
      {isAdmin && <SystemCard />}
    </PageCard>
  );
}

function Figures({ figures }: { figures: Dashboard }) {
  const tiles: Tile[] = [
    { id: 'house-result', label: 'House result (GGR)', value: formatMoney(figures.house_result) },
    { id: 'exchange-commission', label: 'Exchange commission', value: formatMoney(figures.by_product.exchange_commission) },
    { id: 'bookmaker', label: 'Bookmaker', value: formatMoney(figures.by_product.bookmaker) },
    { id: 'fancy', label: 'Fancy', value: formatMoney(figures.by_product.fancy) },
    { id: 'casino', label: 'Casino', value: formatMoney(figures.by_product.casino) },
    { id: 'turnover', label: 'Turnover (stakes matched)', value: formatMoney(figures.turnover) },
    { id: 'bets', label: 'Bets', value: String(figures.bets) },
    { id: 'active-bettors', label: 'Active bettors', value: String(figures.active_bettors) },
    { id: 'open-exposure', label: 'Open exposure (now)', value: formatMoney(figures.open_exposure) },
    { id: 'pending-payments', label: 'Pending payment requests', value: <Link to="/console/payments">{figures.pending_payments}</Link> },
  ];
  // Now, whatever the period: the branch's bettors with limits of their own or on a break.
  const safer: Tile[] = [
    { id: 'safer-with-limits', label: 'Accounts with own limits', value: String(figures.safer.with_limits) },
    { id: 'safer-timed-out', label: 'On a time-out', value: String(figures.safer.timed_out) },
    { id: 'safer-self-excluded', label: 'Self-excluded', value: String(figures.safer.self_excluded) },
  ];
  const period = figures.from_date === figures.to_date ? dayText(figures.from_date) : `${dayText(figures.from_date)} – ${dayText(figures.to_date)}`;
  return (
    <>
      <p className="muted small" data-testid="dashboard-period">{period}</p>
      <Tiles tiles={tiles} testIdPrefix="dashboard" />
      <HouseChart days={figures.days} />
      <section data-testid="dashboard-safer">
        <h2 className="report-subtitle">Safer gambling (now)</h2>
        <Tiles tiles={safer} testIdPrefix="dashboard" />
      </section>
      <div className="dash-columns">
        <section>
          <h2 className="report-subtitle">Largest house exposure</h2>
          <div className="table-wrap">
            <table className="data-table" data-testid="dashboard-top-markets">
              <thead>
                <tr>
                  <th scope="col">Market</th>
                  <th scope="col" className="num">Exposure</th>
                  <th scope="col" className="num">Bets</th>
                </tr>
              </thead>
              <tbody>
                {figures.top_markets.length === 0 ? (
                  <EmptyRow colSpan={3}>No open bets on live markets.</EmptyRow>
                ) : (
                  figures.top_markets.map((market) => (
                    <tr key={market.market_id} data-testid="dashboard-top-market">
                      <td><Link to={`/console/risk/${market.match_id}`}>{market.match_name} / {market.market_name}</Link></td>
                      <td className="num">{formatMoney(market.exposure)}</td>
                      <td className="num">{market.bets}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        </section>
        <section>
          <h2 className="report-subtitle">Live matches</h2>
          <div className="table-wrap">
            <table className="data-table" data-testid="dashboard-live-matches">
              <thead>
                <tr>
                  <th scope="col">Match</th>
                  <th scope="col" className="num">Open markets</th>
                </tr>
              </thead>
              <tbody>
                {figures.live_matches.length === 0 ? (
                  <EmptyRow colSpan={2}>No match has a market open.</EmptyRow>
                ) : (
                  figures.live_matches.map((match) => (
                    <tr key={match.match_id} data-testid="dashboard-live-match">
                      <td>
                        <Link to={`/console/risk/${match.match_id}`}>{match.name}</Link>
                        {match.in_play && <span className="badge"> In play</span>}
                      </td>
                      <td className="num">{match.markets}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        </section>
      </div>
    </>
  );
}
