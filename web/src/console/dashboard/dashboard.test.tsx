import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { istDateKey, shiftDateKey } from '../../lib/format';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';
import { systemKeys, type Dashboard, type SystemFigures } from './api';
import { layoutBars } from './chart';
import { betsPerSecond } from './SystemCard';

const agent = { ...demoUser, user_id: 2, user_name: 'agent', role: 'agent' as const, parent_id: 1 };
const admin = { ...demoUser, user_id: 1, user_name: 'admin', role: 'admin' as const, parent_id: -1 };

const SYSTEM: SystemFigures = {
  recording: true,
  bets_placed: 1000,
  bets_refused: 12,
  refused_by_reason: [
    { reason: 'insufficient_funds', bets: 9 },
    { reason: 'market_not_open', bets: 3 },
  ],
  placement_p50_ms: 0.75,
  placement_p99_ms: 4.2,
  commit_p99_ms: 12.5,
  bets_per_commit: 3.25,
  stream_subscribers: 42,
  markets_running: 17,
  deepest_queue: 5,
  db_pool_in_use: 2,
  db_pool_idle: 8,
  logins: { ok: 120, refused: 4, throttled: 1 },
  feed_lag: [{ feed: 0, lag_ms: 180 }],
  forwarded_calls: 0,
  forwarded_p50_ms: null,
  lease_renewals: { ok: 0, lost: 0, failed: 0 },
};

const FIGURES: Dashboard = {
  from_date: '2026-11-20',
  to_date: '2026-11-22',
  turnover: 12500.5,
  bets: 14,
  active_bettors: 3,
  house_result: 750,
  by_product: { exchange_commission: 50, bookmaker: -300, fancy: 1000, casino: 0 },
  days: [
    { date: '2026-11-20', house_result: 1000 },
    { date: '2026-11-21', house_result: -300 },
    { date: '2026-11-22', house_result: 50 },
  ],
  open_exposure: 2400,
  pending_payments: 2,
  top_markets: [{ market_id: 70, match_id: 7, match_name: 'India v Pakistan', market_name: 'Bookmaker', market_type: 'bookmaker', exposure: 1800, bets: 5 }],
  live_matches: [{ match_id: 7, name: 'India v Pakistan', in_play: true, markets: 3 }],
  safer: { with_limits: 4, timed_out: 1, self_excluded: 2 },
};

describe('the dashboard', () => {
  it("is an agent's landing page with the figures, the chart and the live business", async () => {
    const calls = stubServer({ ...EMPTY_CATALOGUE, 'POST /api/console/dashboard': { data: FIGURES } });
    storeSession(agent);
    renderApp('/console');
    expect(await screen.findByTestId('dashboard-house-result')).toHaveTextContent('House result (GGR)₹750.00');
    expect(screen.getByTestId('dashboard-fancy')).toHaveTextContent('₹1,000.00');
    expect(screen.getByTestId('dashboard-bookmaker')).toHaveTextContent('-₹300.00');
    expect(screen.getByTestId('dashboard-turnover')).toHaveTextContent('₹12,500.50');
    expect(screen.getByTestId('dashboard-active-bettors')).toHaveTextContent('3');
    expect(screen.getByTestId('dashboard-open-exposure')).toHaveTextContent('₹2,400.00');
    expect(screen.getByTestId('dashboard-pending-payments')).toHaveTextContent('2');
    expect(screen.getByTestId('dashboard-period')).toHaveTextContent('20/11/2026 – 22/11/2026');
    expect(screen.getAllByTestId('dashboard-bar')).toHaveLength(3);
    expect(screen.getByTestId('dashboard-top-market')).toHaveTextContent('India v Pakistan / Bookmaker₹1,800.005');
    expect(screen.getByTestId('dashboard-live-match')).toHaveTextContent('India v Pakistan In play3');
    // Safer gambling in the branch now, as figures like the others.
    expect(screen.getByTestId('dashboard-safer')).toHaveTextContent('Safer gambling (now)');
    expect(screen.getByTestId('dashboard-safer-with-limits')).toHaveTextContent('Accounts with own limits4');
    expect(screen.getByTestId('dashboard-safer-timed-out')).toHaveTextContent('On a time-out1');
    expect(screen.getByTestId('dashboard-safer-self-excluded')).toHaveTextContent('Self-excluded2');
    expect(screen.getByTestId('dashboard-safer-self-excluded')).toHaveClass('dash-tile');
    // Today by default.
    const today = istDateKey();
    expect(calls.find((c) => c.path === '/api/console/dashboard')?.body).toEqual({ from_date: today, to_date: today });
  });

  it('asks for the last 7 days at a click', async () => {
    const calls = stubServer({ ...EMPTY_CATALOGUE, 'POST /api/console/dashboard': { data: FIGURES } });
    storeSession(agent);
    renderApp('/console/dashboard');
    const user = userEvent.setup();
    await screen.findByTestId('dashboard-house-result');
    await user.click(screen.getByTestId('dashboard-preset-7'));
    const today = istDateKey();
    const asked = () => calls.filter((c) => c.path === '/api/console/dashboard').map((c) => c.body);
    await waitFor(() => expect(asked()).toContainEqual({ from_date: shiftDateKey(today, -6), to_date: today }));
  });
});

describe("the dashboard's system card", () => {
  it("shows an admin this server's figures, and the bets per second between two reads", async () => {
    // The card's clock: each read of console/system is stamped with it.
    let now = 1_800_000_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const start = now;
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/console/dashboard': { data: FIGURES },
      // 40 more bets placed by the second read, 5 s after the first.
      'POST /api/console/system': () => ({ data: { ...SYSTEM, bets_placed: now === start ? 1000 : 1040 } }),
    });
    storeSession(admin);
    const { queryClient } = renderApp('/console');
    expect(await screen.findByTestId('system-bets-placed')).toHaveTextContent('Bets placed1,000');
    expect(screen.getByTestId('system-bets-per-second')).toHaveTextContent('Bets/s—');
    expect(screen.getByTestId('system-bets-refused')).toHaveTextContent('12');
    expect(screen.getByTestId('system-refusals')).toHaveTextContent('insufficient funds 9, market not open 3');
    expect(screen.getByTestId('system-placement')).toHaveTextContent('0.75 ms / 4.20 ms');
    expect(screen.getByTestId('system-commit-p99')).toHaveTextContent('Commit p9912.5 ms');
    expect(screen.getByTestId('system-bets-per-commit')).toHaveTextContent('3.3');
    expect(screen.getByTestId('system-stream-subscribers')).toHaveTextContent('42');
    expect(screen.getByTestId('system-markets-running')).toHaveTextContent('17');
    expect(screen.getByTestId('system-deepest-queue')).toHaveTextContent('5');
    expect(screen.getByTestId('system-db-pool')).toHaveTextContent('2 / 8');
    expect(screen.getByTestId('system-logins')).toHaveTextContent('120 / 4 / 1');
    expect(screen.getByTestId('system-feed-lag')).toHaveTextContent('#0 180 ms');
    expect(screen.queryByTestId('system-not-recording')).not.toBeInTheDocument();

    now += 5_000;
    await act(() => queryClient.refetchQueries({ queryKey: systemKeys.all }));
    expect(await screen.findByText('1,040')).toBeInTheDocument();
    // (1,040 − 1,000) bets / 5 s.
    expect(screen.getByTestId('system-bets-per-second')).toHaveTextContent('Bets/s8.0');
    expect(calls.filter((c) => c.path === '/api/console/system').length).toBeGreaterThanOrEqual(2);
  });

  it('is not shown to an agent, who is not asked for it', async () => {
    const calls = stubServer({ ...EMPTY_CATALOGUE, 'POST /api/console/dashboard': { data: FIGURES } });
    storeSession(agent);
    renderApp('/console');
    expect(await screen.findByTestId('dashboard-house-result')).toBeInTheDocument();
    expect(screen.queryByTestId('system-card')).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/console/system')).toBe(false);
  });

  it('says so when the server has no recorder', async () => {
    stubServer({ ...EMPTY_CATALOGUE, 'POST /api/console/dashboard': { data: FIGURES }, 'POST /api/console/system': { data: { ...SYSTEM, recording: false } } });
    storeSession(admin);
    renderApp('/console');
    expect(await screen.findByTestId('system-not-recording')).toBeInTheDocument();
  });

  it('reads no rate on the first read, after a restart, or with no time between reads', () => {
    const poll = (bets: number, at: number, previous: { bets_placed: number; at: number } | null) => ({ figures: { ...SYSTEM, bets_placed: bets }, at, previous });
    expect(betsPerSecond(poll(10, 1000, null))).toBeNull();
    expect(betsPerSecond(poll(25, 3000, { bets_placed: 10, at: 1000 }))).toBe(7.5);
    expect(betsPerSecond(poll(5, 3000, { bets_placed: 10, at: 1000 }))).toBeNull();
    expect(betsPerSecond(poll(25, 1000, { bets_placed: 10, at: 1000 }))).toBeNull();
  });
});

describe('the house result chart', () => {
  it('draws wins up and losses down from one zero line, to scale', () => {
    const layout = layoutBars(FIGURES.days, 300, 130);
    expect(layout.topMinor).toBe(100000);
    expect(layout.bottomMinor).toBe(30000);
    expect(layout.zeroY).toBe(100);
    const [win, loss, small] = layout.bars;
    expect([win.y, win.height]).toEqual([0, 100]);
    expect([loss.y, loss.height]).toEqual([100, 30]);
    expect([small.y, small.height]).toEqual([95, 5]);
    expect(win.x).toBeCloseTo(10);
    expect(win.width).toBeCloseTo(80);
  });

  it('keeps a flat line when nothing was won or lost', () => {
    const layout = layoutBars([{ date: '2026-11-22', house_result: 0 }], 100, 50);
    expect(layout.bars[0].height).toBe(0);
    expect(layout.zeroY).toBe(0);
  });
});
