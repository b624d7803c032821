import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { istDateKey, shiftDateKey } from '../../lib/format';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';
import type { Dashboard } from './api';
import { layoutBars } from './chart';

const agent = { ...demoUser, user_id: 2, user_name: 'agent', role: 'agent' as const, parent_id: 1 };

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
