// The Cash Out bar: hidden without a position, the live value on its button, the slider asking
// for a part, the bets of the quote shown sent as the prices to hold, the reason when there is
// no cash out, and a refusal said in the panel.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MarketBook } from '../../api/match-stream';
import { stubServer, type Call } from '../../testing/fake-server';
import type { CashOutQuote } from './api';
import { setLanguage } from '../../i18n';
import { CashOutBar } from './CashOut';

const market = (positions: [number, number]) =>
  ({
    market_id: 5,
    match_id: 100,
    name: 'Match Odds',
    type: 'match_odds',
    status: 'open',
    in_play: false,
    bet_delay_s: 0,
    runners: [
      { selection_id: 1, name: 'India', back: [{ price: 1.98, size: 500 }], lay: [{ price: 2, size: 500 }], position: positions[0], removed: false },
      { selection_id: 2, name: 'Pakistan', back: [{ price: 1.98, size: 500 }], lay: [{ price: 2.02, size: 500 }], position: positions[1], removed: false },
    ],
  }) as unknown as MarketBook;

/** The server's quote of a back of 100 at 3.00 on India: lay India at 2.00, `percent` of 150. */
function quoteOf(percent: number): CashOutQuote {
  const stake = (150 * percent) / 100;
  const after = (p: number) => Math.round(((1 - percent / 100) * p + (percent / 100) * 50) * 100) / 100;
  return {
    available: true,
    value: (50 * percent) / 100,
    reason_if_not: null,
    why_not: null,
    percent,
    equal: 'exact',
    bet_delay_seconds: 0,
    per_runner: [
      { selection_id: 1, name: 'India', position: 200, after: after(200), bet: { side: 'lay', price: 2, stake } },
      { selection_id: 2, name: 'Pakistan', position: -100, after: after(-100), bet: null },
    ],
  };
}

function renderBar(book: MarketBook) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <CashOutBar market={book} />
    </QueryClientProvider>,
  );
}

const percentOf = (call: Call) => (call.body as { percent: number }).percent;

describe('Cash Out', () => {
  it('is not there without a position', () => {
    const calls = stubServer({});
    renderBar(market([0, 0]));
    expect(screen.queryByTestId('cash-out')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('shows the value live, takes a part with the slider and sends the prices it showed', async () => {
    const calls = stubServer({
      'POST /api/bet/cashOutQuote': (call) => ({ data: quoteOf(percentOf(call)) }),
      'POST /api/bet/cashOut': { message: 'Cashed out: ₹25.00 whatever wins.', data: { value: 25, per_runner: [], bets: [], equal: 'exact', spread: 0, repeated: false } },
      'GET /api/user/getUserBalance': { data: { total_balance: 1000, liability: 0 } },
    });
    renderBar(market([200, -100]));
    const open = await screen.findByRole('button', { name: 'Cash Out ₹50.00' });
    const user = userEvent.setup();
    await user.click(open);
    const panel = screen.getByTestId('cash-out-panel');
    expect(within(panel).getByTestId('cash-out-after')).toHaveTextContent('India₹50.00Pakistan₹50.00');
    expect(panel).toHaveTextContent('The same whatever wins.');

    // Half: the quote for 50% comes back, and the panel says the rest stays open.
    fireEvent.change(within(panel).getByTestId('cash-out-percent'), { target: { value: '50' } });
    await waitFor(() => expect(within(panel).getByTestId('cash-out-after')).toHaveTextContent('India₹125.00Pakistan-₹25.00'));
    expect(panel).toHaveTextContent('50% of your position stays open.');
    expect(within(panel).getByTestId('cash-out-confirm')).toHaveTextContent('Cash out ₹25.00');
    await user.click(within(panel).getByTestId('cash-out-confirm'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/bet/cashOut')).toBe(true));
    const sent = calls.find((c) => c.path === '/api/bet/cashOut')!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ market_id: 5, percent: 50, shown: [{ selection_id: 1, side: 'lay', price: 2 }] });
    expect(String(sent.client_ref)).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByTestId('cash-out-panel')).toBeNull());
  });

  it('says why there is no cash out, and says a refusal in the panel', async () => {
    let available = false;
    stubServer({
      'POST /api/bet/cashOutQuote': () =>
        available
          ? { data: quoteOf(100) }
          : { data: { ...quoteOf(100), available: false, value: null, equal: null, per_runner: [], reason_if_not: 'This market is suspended.', why_not: { refusal: 'market_not_open', status: 'suspended' } } },
      'POST /api/bet/cashOut': {
        httpStatus: 422,
        message: 'Not enough is offered to cash out: ₹150.00 needed on India, ₹100.00 offered at the best price. Try cashing out part of it.',
        data: { refusal: { refusal: 'cash_out_not_enough', runner: 'India', needed_minor: 150_00, available_minor: 100_00 } },
      },
    });
    const { rerender } = renderBar(market([200, -100]));
    expect(await screen.findByTestId('cash-out-reason')).toHaveTextContent('This market is suspended and takes no bets now.');
    expect(screen.getByTestId('cash-out-open')).toBeDisabled();

    available = true;
    // The book moving asks again at once.
    const moved = market([200, -100]);
    (moved.runners[0].back[0] as { size: number }).size = 400;
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    rerender(
      <QueryClientProvider client={client}>
        <CashOutBar market={moved} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cash Out ₹50.00' }));
    await user.click(screen.getByTestId('cash-out-confirm'));
    expect(await screen.findByTestId('cash-out-problem')).toHaveTextContent('Not cashed out: Not enough is offered to cash out');
    expect(screen.getByTestId('cash-out-panel')).toBeInTheDocument();
  });
});

describe('Cash Out asked again as the book moves', () => {
  it('asks at most once a second however often the book moves', async () => {
    const calls = stubServer({ 'POST /api/bet/cashOutQuote': (call) => ({ data: quoteOf(percentOf(call)) }) });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const bar = (size: number) => {
      const book = market([200, -100]);
      (book.runners[0].back[0] as { size: number }).size = size;
      return (
        <QueryClientProvider client={client}>
          <CashOutBar market={book} />
        </QueryClientProvider>
      );
    };
    const quotes = () => calls.filter((c) => c.path === '/api/bet/cashOutQuote').length;
    const { rerender } = render(bar(500));
    await waitFor(() => expect(quotes()).toBe(1));
    // Five moves within a few milliseconds: one more quote, a second after the first.
    for (const size of [490, 480, 470, 460, 450]) rerender(bar(size));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(quotes()).toBe(1);
    await waitFor(() => expect(quotes()).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(quotes()).toBe(2);
  });
});

describe('Cash Out in Hindi', () => {
  it('says why not and a refusal in Hindi, from the facts the server gives', async () => {
    setLanguage('hi');
    stubServer({
      'POST /api/bet/cashOutQuote': {
        data: { ...quoteOf(100), available: false, value: null, equal: null, per_runner: [], reason_if_not: 'Nobody offers a price on India now, so the position cannot be cashed out.', why_not: { refusal: 'cash_out_no_price', runner: 'India' } },
      },
    });
    renderBar(market([200, -100]));
    expect(await screen.findByTestId('cash-out-reason')).toHaveTextContent('अभी India पर कोई भाव नहीं दे रहा, इसलिए पोज़ीशन कैश आउट नहीं हो सकती।');
    expect(screen.getByTestId('cash-out-open')).toHaveTextContent('कैश आउट');
  });
});
