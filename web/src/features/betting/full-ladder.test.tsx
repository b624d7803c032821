// The full ladder (its rows from market/ladder's few levels, the caller's own orders, a click to
// the slip, refreshed live as the match's stream moves the market) and the price chart's scaling.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MarketBook } from '../../api/match-stream';
import { stubServer, type Call } from '../../testing/fake-server';
import { storeSession } from '../../testing/render';
import type { Ladder, PricePoint } from './api';
import { FullLadder } from './FullLadder';
import { LADDER } from './ladder';
import { focusIndex, ladderAmount, ladderRows } from './ladder-rows';
import { LadderModal } from './LadderModal';
import { describeInterval, ladderStep, layoutChart } from './price-chart';

const level = (price: number, sizes: Partial<Ladder['levels'][number]>) => ({ price, back_size: 0, lay_size: 0, traded: 0, my_back: 0, my_lay: 0, ...sizes });

const ladder: Ladder = {
  market_id: 1,
  selection_id: 11,
  name: 'India',
  status: 'open',
  in_play: false,
  last_traded_price: 2.4,
  total_matched: 110,
  levels: [
    level(1.5, { back_size: 10 }),
    level(2.4, { back_size: 20, traded: 10, my_lay: 20 }),
    level(2.5, { traded: 100 }),
    level(3, { lay_size: 13 }),
    level(5, { lay_size: 17, my_back: 2.5 }),
  ],
};

const row = (price: string) => screen.getAllByTestId('ladder-row').find((r) => r.dataset.price === price)!;

describe('the full ladder', () => {
  it('has every one of the 350 steps, lowest first, with the few the server named filled in', () => {
    const rows = ladderRows(ladder);
    expect(rows.map((r) => r.hundredths)).toEqual(LADDER);
    const at = (h: number) => rows.find((r) => r.hundredths === h)!;
    expect(at(240)).toMatchObject({ price: 2.4, backSize: 20, laySize: 0, traded: 10, myBack: 0, myLay: 20, last: true });
    expect(at(500)).toMatchObject({ laySize: 17, myBack: 2.5, last: false });
    expect(rows.filter((r) => r.backSize || r.laySize || r.traded || r.myBack || r.myLay)).toHaveLength(5);
    // It opens on the last traded price; without one, between the best prices; with nothing, at 2.00.
    expect(rows[focusIndex(rows)].hundredths).toBe(240);
    const untraded = ladderRows({ levels: [level(1.5, { back_size: 1 }), level(3, { lay_size: 1 })], last_traded_price: null });
    const between = untraded[focusIndex(untraded)].hundredths;
    expect(LADDER.indexOf(between)).toBe(Math.round((LADDER.indexOf(150) + LADDER.indexOf(300)) / 2));
    const empty = ladderRows({ levels: [], last_traded_price: null });
    expect(empty[focusIndex(empty)].hundredths).toBe(200);
  });

  it('shows sizes, the caller’s own orders and the traded volume at their prices, and puts a clicked price on the slip', async () => {
    const onPick = vi.fn();
    render(<FullLadder rows={ladderRows(ladder)} runnerName="India" onPick={onPick} />);
    expect(screen.getAllByTestId('ladder-row')).toHaveLength(350);
    const at240 = row('2.40');
    expect(at240).toHaveAttribute('data-last', 'true');
    expect(within(at240).getByTestId('ladder-back')).toHaveTextContent('20');
    expect(within(at240).getByTestId('ladder-my-lay')).toHaveTextContent('20');
    expect(within(at240).getByTestId('ladder-my-lay')).toHaveAttribute('title', 'Your unmatched lays: ₹20.00');
    expect(within(at240).getByTestId('ladder-traded')).toHaveTextContent('10');
    expect(within(row('2.50')).getByTestId('ladder-traded')).toHaveTextContent('100');
    expect(within(row('5.00')).getByTestId('ladder-lay')).toHaveTextContent('17');
    expect(within(row('5.00')).getByTestId('ladder-my-back')).toHaveTextContent('2.50');
    // Nobody's order at 3.00 is the caller's.
    expect(within(row('3.00')).getByTestId('ladder-my-back')).toBeEmptyDOMElement();
    expect(within(row('3.00')).getByTestId('ladder-lay')).toHaveTextContent('13');
    // A step with nothing on it is empty but still takes a price to the slip.
    expect(within(row('7.00')).getByTestId('ladder-back')).toBeEmptyDOMElement();

    const user = userEvent.setup();
    await user.click(within(row('3.00')).getByRole('button', { name: 'Lay India at 3.00' }));
    expect(onPick).toHaveBeenLastCalledWith('lay', 3);
    await user.click(within(row('1.50')).getByRole('button', { name: 'Back India at 1.50' }));
    expect(onPick).toHaveBeenLastCalledWith('back', 1.5);
  });

  it('writes its amounts short but exact for small ones', () => {
    expect(ladderAmount(0)).toBe('');
    expect(ladderAmount(2.5)).toBe('2.50');
    expect(ladderAmount(100)).toBe('100');
    expect(ladderAmount(9999.99)).toBe('9999.99');
    expect(ladderAmount(12_345)).toBe('12.3k');
  });
});

const market: MarketBook = {
  market_id: 1,
  match_id: 100,
  name: 'Match Odds',
  type: 'match_odds',
  status: 'open',
  in_play: false,
  bet_delay_s: 0,
  min_stake: 100,
  max_stake: 500000,
  commission_bp: 0,
  total_matched: 110,
  runners: [{ selection_id: 11, name: 'India', back: [{ price: 2.4, size: 20 }], lay: [{ price: 3, size: 13 }], position: 0, removed: false }],
  line_no: null,
  rate_no: null,
  line_yes: null,
  rate_yes: null,
  book: [],
};

function renderModal(props: Partial<Parameters<typeof LadderModal>[0]> = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onPick = vi.fn();
  const onClose = vi.fn();
  const view = (m: MarketBook) => (
    <QueryClientProvider client={queryClient}>
      <LadderModal market={m} selectionId={11} onPick={onPick} onClose={onClose} {...props} />
    </QueryClientProvider>
  );
  const rendered = render(view(props.market ?? market));
  return { onPick, onClose, rerender: (m: MarketBook) => rendered.rerender(view(m)) };
}

const calls = (all: Call[], path: string) => all.filter((c) => c.path === `/api/${path}`);

describe('the ladder dialog', () => {
  it('asks for the runner’s ladder, says the last price and what matched, and sends a click to the slip and closes', async () => {
    storeSession();
    const all = stubServer({ 'POST /api/market/ladder': { data: ladder } });
    const { onPick, onClose } = renderModal();
    expect(await screen.findByTestId('full-ladder')).toBeInTheDocument();
    expect(calls(all, 'market/ladder')[0].body).toEqual({ market_id: 1, selection_id: 11 });
    expect(screen.getByTestId('ladder-modal')).toHaveTextContent('India · Match Odds');
    expect(screen.getByTestId('ladder-ltp')).toHaveTextContent('2.40');
    expect(screen.getByTestId('ladder-total')).toHaveTextContent('₹110.00');
    await userEvent.setup().click(within(row('2.40')).getByTestId('ladder-back'));
    expect(onPick).toHaveBeenCalledWith({ marketId: 1, selectionId: 11, side: 'back', price: 2.4 });
    expect(onClose).toHaveBeenCalled();
  });

  it('asks again when the stream moves the market, once for a burst, and the chart only when something traded', async () => {
    storeSession();
    const history = { market_id: 1, selection_id: 11, interval_s: 60, points: [{ at: '2026-11-22T14:00:00.000Z', price: 2.5, volume: 100 }] };
    const all = stubServer({ 'POST /api/market/ladder': { data: ladder }, 'POST /api/market/priceHistory': { data: history } });
    const { rerender } = renderModal();
    await screen.findByTestId('full-ladder');
    await userEvent.setup().click(screen.getByTestId('chart-tab'));
    expect(await screen.findByTestId('price-chart')).toBeInTheDocument();
    expect(calls(all, 'market/ladder')).toHaveLength(1);
    expect(calls(all, 'market/priceHistory')).toHaveLength(1);

    // Three changes of the book in a burst: one more ladder, no chart (nothing traded).
    act(() => rerender({ ...market }));
    act(() => rerender({ ...market, status: 'suspended' }));
    act(() => rerender({ ...market }));
    await waitFor(() => expect(calls(all, 'market/ladder')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(calls(all, 'market/ladder')).toHaveLength(2);
    expect(calls(all, 'market/priceHistory')).toHaveLength(1);

    // A match: the total moved, so the chart is asked again too.
    act(() => rerender({ ...market, total_matched: 150 }));
    await waitFor(() => expect(calls(all, 'market/priceHistory')).toHaveLength(2));
    expect(calls(all, 'market/ladder')).toHaveLength(3);
  });

  it('shows the server’s words when there is no ladder', async () => {
    storeSession();
    stubServer({ 'POST /api/market/ladder': { httpStatus: 409, message: 'This market is closed.' } });
    renderModal();
    expect(await screen.findByTestId('error-message')).toHaveTextContent('This market is closed.');
  });
});

describe('the price chart', () => {
  const point = (minute: number, price: number, volume: number): PricePoint => ({ at: new Date(Date.UTC(2026, 10, 22, 14, minute)).toISOString(), price, volume });
  const box = { width: 600, height: 260, volumeHeight: 60 };

  it('spreads the intervals over the width and places prices by ladder step, highest at the top', () => {
    const points = [point(0, 2, 10), point(2, 2.02, 40), point(4, 1.99, 20)];
    const layout = layoutChart(points, 120, box);
    // Three two-minute intervals fill the width: each price at the middle of its interval.
    expect(layout.dots.map((d) => d.x)).toEqual([100, 300, 500]);
    // 1.99 → 2.00 → 2.02 are one step each (the step widens at 2.00): equal heights apart.
    const [at200, at202, at199] = layout.dots.map((d) => d.y);
    expect(at202).toBeLessThan(at200);
    expect(at199).toBeGreaterThan(at200);
    expect(at200 - at202).toBeCloseTo(at199 - at200, 6);
    // One step of margin above the highest and below the lowest, inside the price area (200 high).
    expect(at202).toBeCloseTo(200 / 4, 6);
    expect(at199).toBeCloseTo((200 * 3) / 4, 6);
    expect(layout.line).toBe('100,100 300,50 500,150');
    // Bars from the bottom, the largest volume the full 60.
    expect(layout.bars.map((b) => b.height)).toEqual([15, 60, 30]);
    expect(layout.bars.every((b) => b.y + b.height === 260)).toBe(true);
    expect(layout.bars[0].width).toBeCloseTo(160, 6);
    expect(layout.ticks.map((t) => t.label)).toEqual(['1.98', '1.99', '2.00', '2.02', '2.04']);
  });

  it('draws one point or none without dividing by nothing', () => {
    const one = layoutChart([point(0, 1000, 5)], 1, box);
    expect(one.dots[0].x).toBe(300);
    expect(Number.isFinite(one.dots[0].y)).toBe(true);
    expect(one.ticks.map((t) => t.label)).toEqual(['990.00', '1000.00']);
    expect(layoutChart([], 1, box)).toEqual({ line: '', dots: [], bars: [], ticks: [] });
  });

  it('finds a price’s ladder step and names interval lengths', () => {
    expect(ladderStep(1.01)).toBe(0);
    expect(ladderStep(2)).toBe(99);
    expect(ladderStep(1000)).toBe(349);
    expect(ladderStep(2.01)).toBe(99);
    expect(describeInterval(15)).toBe('15 s');
    expect(describeInterval(120)).toBe('2 min');
    expect(describeInterval(3_600)).toBe('1 h');
    expect(describeInterval(86_400)).toBe('1 day');
    expect(describeInterval(3 * 86_400)).toBe('3 days');
  });
});
