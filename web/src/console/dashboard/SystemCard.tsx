import { useQuery, useQueryClient } from '@tanstack/react-query';
import { dataOr } from '../../api/client';
import { QueryState } from '../../components/QueryState';
import { getSystem, systemKeys, type SystemFigures, type SystemPoll } from './api';
import { Tiles, type Tile } from './Tiles';

/** How often the figures are read again while the page is open (as the dashboard's). */
const REFRESH_MS = 5_000;

/**
 * Bets placed per second between the last two reads: the change in bets placed over the time
 * between them. Null on the first read, or when the count went back (the server restarted).
 */
export function betsPerSecond(poll: SystemPoll): number | null {
  const { previous } = poll;
  if (!previous) return null;
  const seconds = (poll.at - previous.at) / 1000;
  const bets = poll.figures.bets_placed - previous.bets_placed;
  return seconds > 0 && bets >= 0 ? bets / seconds : null;
}

const count = (n: number) => n.toLocaleString('en-IN');
/** Milliseconds to about three figures: 0.75 ms, 12.5 ms, 250 ms. */
function ms(value: number | null): string {
  if (value === null) return '—';
  return `${value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)} ms`;
}

/**
 * The dashboard's "System (this server)" card, for an admin: the server's own figures from
 * `console/system`, read from the same recorder as `GET /metrics` (server:
 * crates/console-api/src/system.rs).
 */
export function SystemCard() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: systemKeys.all,
    queryFn: async (): Promise<SystemPoll | null> => {
      const figures = dataOr(await getSystem(), null);
      if (!figures) return null;
      // The read before this one is still the query's data while this one is on its way.
      const before = queryClient.getQueryData<SystemPoll | null>(systemKeys.all);
      const previous = before ? { bets_placed: before.figures.bets_placed, at: before.at } : null;
      return { figures, at: Date.now(), previous };
    },
    refetchInterval: REFRESH_MS,
  });
  const poll = query.data;
  return (
    <section data-testid="system-card">
      <h2 className="report-subtitle">System (this server)</h2>
      <QueryState isPending={query.isPending} error={query.error}>
        {poll && <SystemTiles figures={poll.figures} rate={betsPerSecond(poll)} />}
      </QueryState>
    </section>
  );
}

function SystemTiles({ figures, rate }: { figures: SystemFigures; rate: number | null }) {
  const lags = figures.feed_lag.map((feed) => `#${feed.feed} ${count(feed.lag_ms)} ms`).join(', ');
  const refusals = figures.refused_by_reason.map((r) => `${r.reason.replaceAll('_', ' ')} ${count(r.bets)}`).join(', ');
  const tiles: Tile[] = [
    { id: 'bets-placed', label: 'Bets placed', value: count(figures.bets_placed) },
    { id: 'bets-per-second', label: 'Bets/s', value: rate === null ? '—' : rate.toFixed(1) },
    { id: 'bets-refused', label: 'Refused', value: count(figures.bets_refused) },
    { id: 'placement', label: 'Placement p50 / p99', value: `${ms(figures.placement_p50_ms)} / ${ms(figures.placement_p99_ms)}` },
    { id: 'commit-p99', label: 'Commit p99', value: ms(figures.commit_p99_ms) },
    { id: 'bets-per-commit', label: 'Bets per commit', value: figures.bets_per_commit === null ? '—' : figures.bets_per_commit.toFixed(1) },
    { id: 'stream-subscribers', label: 'Stream subscribers', value: count(figures.stream_subscribers) },
    { id: 'markets-running', label: 'Markets running', value: count(figures.markets_running) },
    { id: 'deepest-queue', label: 'Deepest queue', value: count(figures.deepest_queue) },
    { id: 'db-pool', label: 'DB pool in use / idle', value: `${count(figures.db_pool_in_use)} / ${count(figures.db_pool_idle)}` },
    { id: 'logins', label: 'Log-ins ok / refused / throttled', value: `${count(figures.logins.ok)} / ${count(figures.logins.refused)} / ${count(figures.logins.throttled)}` },
    { id: 'feed-lag', label: 'Feed lag', value: lags || '—' },
  ];
  return (
    <>
      {!figures.recording && <p className="muted small" data-testid="system-not-recording">This process has no metrics recorder: the figures read zero.</p>}
      <Tiles tiles={tiles} testIdPrefix="system" />
      {refusals && <p className="muted small" data-testid="system-refusals">Refused most for: {refusals}</p>}
    </>
  );
}
