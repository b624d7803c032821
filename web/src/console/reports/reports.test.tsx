import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { istDateKey, shiftDateKey } from '../../lib/format';
import { EMPTY_CATALOGUE, stubServer, type Answers, type Call } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';
import type { PartnershipReport } from './api';

const master = { ...demoUser, user_id: 2, user_name: 'master', role: 'agent' as const, parent_id: 1 };

// A master at 70% over an agent at 40% (whose clients lost 1,000) and its own client (who won
// 200). The sub-agent owes 1,000 − 400 = 600; the client is owed 200; the master keeps
// 30% of 1,000 − 70% of 200 = 160 and owes its upline the rest: 400 − 160 = 240.
const MASTER_REPORT: PartnershipReport = {
  user_id: 2,
  user_name: 'master',
  partnership: 70,
  rows: [
    { user_id: 5, user_name: 'sub', role: 'agent', partnership: 40, house_result: 1000, downline_share: 400, own_share: 300, upline_share: 300, collect: 600, settled: 0, last_settled_at: null, remaining: 600 },
    { user_id: 9, user_name: 'ravi', role: 'client', partnership: 0, house_result: -200, downline_share: 0, own_share: -140, upline_share: -60, collect: -200, settled: 0, last_settled_at: null, remaining: -200 },
  ],
  own_share: 160,
  collect_total: 400,
  pay_upline: 240,
  settled_total: 0,
  remaining_total: 400,
  upline_settled: 0,
  upline_remaining: 240,
  balance: 0,
  markets: [
    { market_id: 70, match_id: 7, name: 'India v Pakistan / Bookmaker', house_result: 1000, own_share: 300 },
    { market_id: 71, match_id: 7, name: 'India v Pakistan / 6 over runs', house_result: -50.5, own_share: -15.15 },
    { market_id: -1, match_id: null, name: 'Casino', house_result: -200, own_share: -140 },
  ],
};

const SUB_REPORT: PartnershipReport = {
  user_id: 5,
  user_name: 'sub',
  partnership: 40,
  rows: [{ user_id: 11, user_name: 'asha', role: 'client', partnership: 0, house_result: 1000, downline_share: 0, own_share: 400, upline_share: 600, collect: 1000, settled: 0, last_settled_at: null, remaining: 1000 }],
  own_share: 400,
  collect_total: 1000,
  pay_upline: 600,
  settled_total: 0,
  remaining_total: 1000,
  upline_settled: 0,
  upline_remaining: 600,
  balance: 0,
  markets: [{ market_id: 70, match_id: 7, name: 'India v Pakistan / Bookmaker', house_result: 1000, own_share: 400 }],
};

/** The master's report, or the sub-agent's when asked with its id. */
function server(masterReport: PartnershipReport = MASTER_REPORT): Answers {
  return {
    ...EMPTY_CATALOGUE,
    'POST /api/console/report/partnership': (call: Call) => ({
      data: (call.body as { user_id?: number }).user_id === 5 ? SUB_REPORT : masterReport,
    }),
  };
}

const reportCalls = (calls: Call[]) => calls.filter((c) => c.path === '/api/console/report/partnership').map((c) => c.body);
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('the partnership report', () => {
  it("shows a row per direct child with its partnership and shares, the totals and the per-market table", async () => {
    const calls = stubServer(server());
    storeSession(master);
    renderApp('/console/reports');
    const rows = await screen.findAllByTestId('report-pnl-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByRole('button', { name: 'sub' })).toBeInTheDocument();
    expect(cells(rows[0]).slice(1)).toEqual(['40%', '₹1,000.00', '₹400.00', '₹300.00', '₹300.00']);
    // A client has no partnership; its name opens its account, and a loss to it shows red.
    expect(within(rows[1]).getByRole('link', { name: 'ravi' })).toHaveAttribute('href', '#/console/account/9');
    expect(cells(rows[1]).slice(1)).toEqual(['', '-₹200.00', '₹0.00', '-₹140.00', '-₹60.00']);
    expect(within(rows[1]).getByText('-₹140.00')).toHaveClass('pnl', 'lose');
    const total = screen.getByTestId('report-pnl-total');
    expect(cells(total).filter(Boolean)).toEqual(['₹800.00', '₹400.00', '₹160.00', '₹240.00']);
    expect(screen.getByTestId('report-partnership')).toHaveTextContent("master's partnership: 70%");
    const markets = screen.getAllByTestId('report-market-row');
    expect(markets.map(cells)).toEqual([
      ['India v Pakistan / Bookmaker', '₹1,000.00', '₹300.00'],
      ['India v Pakistan / 6 over runs', '-₹50.50', '-₹15.15'],
      ['Casino', '-₹200.00', '-₹140.00'],
    ]);
    // The match's line adds its markets up, to the paisa; the casino keeps its own line.
    expect(screen.getAllByTestId('report-match-row').map(cells)).toEqual([
      ['India v Pakistan', '₹949.50', '₹284.85'],
      ['Casino', '-₹200.00', '-₹140.00'],
    ]);
    // The caller's own report over the last week (IST days): no user_id.
    const today = istDateKey();
    expect(reportCalls(calls)[0]).toEqual({ from_date: shiftDateKey(today, -7), to_date: today });
  });

  it("drills into an agent's report by its name and back up by the breadcrumb, keeping the dates", async () => {
    const calls = stubServer(server());
    storeSession(master);
    renderApp('/console/reports');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'sub' }));
    await waitFor(() => expect(screen.getAllByTestId('report-pnl-row')).toHaveLength(1));
    expect(screen.getByTestId('report-pnl-row')).toHaveTextContent('asha');
    expect(reportCalls(calls).at(-1)).toMatchObject({ user_id: 5 });
    const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(trail).toHaveTextContent('master › sub');
    expect(within(trail).getByText('sub')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('report-partnership')).toHaveTextContent("sub's partnership: 40%");

    await user.click(within(trail).getByRole('button', { name: 'master' }));
    await waitFor(() => expect(screen.getAllByTestId('report-pnl-row')).toHaveLength(2));
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent(/^master$/);
    const [first, drilled] = reportCalls(calls) as Record<string, unknown>[];
    expect(drilled).toEqual({ ...first, user_id: 5 });
  });

  it('narrows the whole report to a match or a market picked from its tables, and back to all', async () => {
    const calls = stubServer(server());
    storeSession(master);
    renderApp('/console/reports');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'India v Pakistan' }));
    await waitFor(() => expect(reportCalls(calls).at(-1)).toMatchObject({ match_id: 7 }));
    expect(screen.getByTestId('report-scope')).toHaveTextContent('Only India v Pakistan');
    // The casino's rounds are no match or market to narrow to.
    expect(within(screen.getAllByTestId('report-market-row')[2]).queryByRole('button')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'India v Pakistan / 6 over runs' }));
    await waitFor(() => expect(reportCalls(calls).at(-1)).toMatchObject({ market_id: 71 }));
    expect(reportCalls(calls).at(-1)).not.toHaveProperty('match_id');
    // Drilling into an agent keeps the market.
    await user.click(screen.getByRole('button', { name: 'sub' }));
    await waitFor(() => expect(reportCalls(calls).at(-1)).toMatchObject({ user_id: 5, market_id: 71 }));
    await user.click(screen.getByTestId('report-scope-clear'));
    await waitFor(() => expect(reportCalls(calls).at(-1)).not.toHaveProperty('market_id'));
    expect(screen.queryByTestId('report-scope')).toBeNull();
  });

  it('asks again for the dates entered', async () => {
    const calls = stubServer(server());
    storeSession(master);
    renderApp('/console/reports');
    await screen.findAllByTestId('report-pnl-row');
    const user = userEvent.setup();
    await user.clear(screen.getByTestId('filter-from'));
    await user.type(screen.getByTestId('filter-from'), '01/11/2026');
    await user.clear(screen.getByTestId('filter-to'));
    await user.type(screen.getByTestId('filter-to'), '15/11/2026');
    await user.click(screen.getByTestId('filter-submit'));
    await waitFor(() => expect(reportCalls(calls).at(-1)).toEqual({ from_date: '2026-11-01', to_date: '2026-11-15' }));
  });
});

describe('the collection report', () => {
  it('puts what a child owes under "To receive" and what it is owed under "To pay", then the upline, the share and a zero balance', async () => {
    stubServer(server());
    storeSession(master);
    renderApp('/console/reports');
    const user = userEvent.setup();
    await screen.findAllByTestId('report-pnl-row');
    await user.click(screen.getByTestId('report-tab-collection'));
    const rows = screen.getAllByTestId('report-collection-row');
    expect(rows.map(cells)).toEqual([
      ['sub', '₹600.00', '', '', '₹600.00', 'Settle'],
      ['ravi', '', '₹200.00', '', '-₹200.00', 'Settle'],
    ]);
    expect(cells(screen.getByTestId('report-collection-total'))).toEqual(['₹600.00', '₹200.00', '₹0.00', '₹400.00', '']);
    expect(screen.getByTestId('report-collect-total')).toHaveTextContent('₹400.00');
    expect(screen.getByTestId('report-pay-upline')).toHaveTextContent('You pay your upline₹240.00');
    expect(screen.getByTestId('report-own-share')).toHaveTextContent('Your share₹160.00');
    const balance = within(screen.getByTestId('report-balance')).getByText('₹0.00');
    expect(balance).not.toHaveClass('lose');
    expect(screen.queryByTestId('report-unbalanced')).not.toBeInTheDocument();
  });

  it('shows a balance that is not zero in red with a warning', async () => {
    stubServer(server({ ...MASTER_REPORT, pay_upline: 239.5, balance: 0.5 }));
    storeSession(master);
    renderApp('/console/reports');
    const user = userEvent.setup();
    await screen.findAllByTestId('report-pnl-row');
    await user.click(screen.getByTestId('report-tab-collection'));
    expect(within(screen.getByTestId('report-balance')).getByText('₹0.50')).toHaveClass('pnl', 'lose');
    expect(screen.getByTestId('report-unbalanced')).toBeInTheDocument();
  });

  it('records cash received from a child, prefilled with what remains, and shows it settled', async () => {
    const settledReport: PartnershipReport = {
      ...MASTER_REPORT,
      rows: [{ ...MASTER_REPORT.rows[0], settled: 500, last_settled_at: '2026-11-22T08:30:00.000Z', remaining: 100 }, MASTER_REPORT.rows[1]],
      settled_total: 500,
      remaining_total: -100,
    };
    let settled = false;
    const calls = stubServer({
      ...server(),
      'POST /api/console/report/partnership': () => ({ data: settled ? settledReport : MASTER_REPORT }),
      'POST /api/console/collection/settle': (call: Call) => {
        if ((call.body as { amount: string }).amount === '600.00') {
          return { httpStatus: 400, message: 'Too much.', data: { errors: { amount: '₹600.00 is more than can be settled. Settle at most ₹500.00.' } } };
        }
        settled = true;
        return { message: 'Cash ₹500.00 received from sub.', data: { settlement_id: 1, transaction_id: 9, user_id: 5, user_name: 'sub', owed_before: 600, owed_after: 100 } };
      },
    });
    storeSession(master);
    renderApp('/console/reports');
    const user = userEvent.setup();
    await screen.findAllByTestId('report-pnl-row');
    await user.click(screen.getByTestId('report-tab-collection'));
    await user.click(screen.getAllByTestId('report-settle')[0]);
    const dialog = await screen.findByTestId('settle-dialog');
    expect(within(dialog).getByTestId('settle-amount')).toHaveValue('600.00');
    expect(within(dialog).getByTestId('settle-received')).toBeChecked();
    await user.click(within(dialog).getByTestId('settle-submit'));
    expect(await within(dialog).findByText('₹600.00 is more than can be settled. Settle at most ₹500.00.')).toBeInTheDocument();
    await user.clear(within(dialog).getByTestId('settle-amount'));
    await user.type(within(dialog).getByTestId('settle-amount'), '500');
    await user.type(within(dialog).getByTestId('settle-remark'), 'at the shop');
    await user.click(within(dialog).getByTestId('settle-submit'));
    await waitFor(() => expect(screen.queryByTestId('settle-dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === '/api/console/collection/settle').at(-1)?.body).toEqual({ user_id: 5, direction: 'received', amount: '500', remark: 'at the shop' });
    const row = (await screen.findAllByTestId('report-collection-settled'))[0];
    await waitFor(() => expect(row).toHaveTextContent('₹500.00 on 22/11/2026 14:00:00'));
    expect(screen.getAllByTestId('report-collection-remaining')[0]).toHaveTextContent('₹100.00');
    expect(screen.getByTestId('report-remaining-total')).toHaveTextContent('-₹100.00');
  });

  it("offers no settling on a report drilled into: cash is settled by the parent itself", async () => {
    stubServer(server());
    storeSession(master);
    renderApp('/console/reports');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('report-drill'));
    await screen.findByText("sub's partnership: 40%. Money is the house's result: positive when the clients lost.");
    await user.click(screen.getByTestId('report-tab-collection'));
    await screen.findAllByTestId('report-collection-row');
    expect(screen.queryByTestId('report-settle')).not.toBeInTheDocument();
  });
});
