// @ts-check
// History and P&L in the browser against the real server (issue 32): after a bet settles, the
// bettor opens Profit & Loss from the user menu and drills down sport → match → market to the
// figures the account statement's line shows (₹150.00 won, ₹7.50 commission, ₹142.50 credited),
// opens Bet History and finds the bet with the same figures and totals, and Current Bets shows
// what a live bet risks and may win. At 1280×800 and 390×844, every page fitting the screen.
//
// The operator (admin API) makes a fresh match whose market charges 5% commission; a second
// bettor (demo2, through the API) is the counterparty.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, logInAs, newPage, startServer } from '../harness.mjs';
import { assertFitsEveryViewport, VIEWPORTS } from '../viewport.mjs';

const MATCH_NAME = 'Herons v Kestrels';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
const pageErrors = [];
let adminToken = '';
let demoToken = '';
let statementCredit = '';

/** A call that must succeed. @param {string} apiPath @param {unknown} body @param {string} [token] */
async function must(apiPath, body, token = adminToken) {
  const answer = await server.api(apiPath, body, token);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** What the demo bettor's statement lines of `type` add up to, in paise, every page read. @param {string} type */
async function statementNet(type) {
  let net = 0;
  for (let page = 1; ; page += 1) {
    const data = await must('report/accountStatement', { type, page, limit: 100 }, demoToken);
    for (const row of data.rows) net += Math.round(row.credit * 100) - Math.round(row.debit * 100);
    if (page * 100 >= data.total) return net;
  }
}

/** Rupees as a table shows them ("-₹1,00,142.50") in paise. @param {string} text */
function paise(text) {
  return Math.round(Number(text.replace(/[₹,]/g, '')) * 100);
}

/** Opens a page from the user menu, as a bettor does. @param {string} item @param {string} pageId */
async function fromUserMenu(item, pageId) {
  await page.getByTestId('user-menu-toggle').click();
  await page.getByTestId(item).click();
  await page.getByTestId(pageId).waitFor();
  await page.getByTestId('loading').waitFor({ state: 'detached' });
}

/** The cells of a table row by their column's label. @param {import('playwright-core').Locator} row */
async function cellsByLabel(row) {
  const cells = await row.locator('td[data-label]').evaluateAll((tds) => tds.map((td) => [td.getAttribute('data-label') ?? '', (td.textContent ?? '').trim()]));
  return Object.fromEntries(cells);
}

before(async () => {
  server = await startServer();
  adminToken = (await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' })).body.data.token;
  const demo2Token = (await server.api('user/login', { user_name: 'demo2', password: 'Demo@1234' })).body.data.token;
  demoToken = (await server.api('user/login', { user_name: 'demo', password: 'Demo@1234' })).body.data.token;
  const series = (await server.api('series/getSeries', { sport_id: 4, is_active: 1 }, adminToken)).body.data;
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  const match = (await must('admin/match/create', { series_id: series[0].series_id, name: MATCH_NAME, open_date: openDate })).id;
  const settled = await must('admin/market/create', { match_id: match, type: 'match_odds', name: 'Match Odds', runners: ['Herons', 'Kestrels'], bet_delay_s: 0, commission_bp: 500 });
  const live = await must('admin/market/create', { match_id: match, type: 'match_odds', name: 'Winner (live)', runners: ['Herons', 'Kestrels'], min_stake: 1, bet_delay_s: 0 });
  for (const market of [settled.market_id, live.market_id]) await must('admin/market/status', { market_id: market, status: 'open' });
  // demo backs Herons 100.00 at 2.50 against demo2's lay; Herons win: +150.00, 5% commission.
  await must('bet/placeBet', { market_id: settled.market_id, selection_id: settled.selection_ids[0], side: 'lay', price: 2.5, stake: 100, client_ref: 'e2e-history-lay' }, demo2Token);
  await must('bet/placeBet', { market_id: settled.market_id, selection_id: settled.selection_ids[0], side: 'back', price: 2.5, stake: 100, client_ref: 'e2e-history-back' }, demoToken);
  await must('admin/market/result', { market_id: settled.market_id, winner_selection_id: settled.selection_ids[0] });
  // A live bet for Current Bets: demo lays Kestrels 40.00 at 3.00, matched by demo2.
  await must('bet/placeBet', { market_id: live.market_id, selection_id: live.selection_ids[1], side: 'back', price: 3, stake: 40, client_ref: 'e2e-history-live-back' }, demo2Token);
  await must('bet/placeBet', { market_id: live.market_id, selection_id: live.selection_ids[1], side: 'lay', price: 3, stake: 40, client_ref: 'e2e-history-live-lay' }, demoToken);

  browser = await launchBrowser();
  page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await logInAs(page, server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the statement line, then Profit & Loss from the user menu down to the market, at 1280 and 390', async () => {
  await fromUserMenu('menu-account-statement', 'account-statement-page');
  const line = page.getByTestId('report-table').locator('tbody tr').filter({ hasText: MATCH_NAME });
  await line.waitFor();
  statementCredit = (await cellsByLabel(line)).Credit;
  assert.equal(statementCredit, '₹142.50', '150.00 won less 7.50 commission');

  await fromUserMenu('menu-profit-loss', 'profit-loss-page');
  assert.equal(await page.evaluate(() => location.hash), '#/report/profit-loss');
  const table = page.getByTestId('report-table');
  const cricket = table.locator('tbody tr').filter({ hasText: 'Cricket' });
  await cricket.waitFor();
  // The grand total is what the statement's betting lines add up to.
  const totals = await cellsByLabel(table.getByTestId('report-totals'));
  const betting = (await statementNet('sports')) + (await statementNet('casino'));
  assert.equal(paise(totals.Net), betting);
  await assertFitsEveryViewport(page, 'history-pl-sports');

  await cricket.getByTestId('pl-open').click();
  const event = table.locator('tbody tr').filter({ hasText: MATCH_NAME });
  await event.waitFor();
  assert.deepEqual(await cellsByLabel(event), { Event: MATCH_NAME, Markets: '1', 'P&L': '₹150.00', Commission: '₹7.50', Net: '₹142.50' });
  await event.getByTestId('pl-open').click();
  const market = table.locator('tbody tr').filter({ hasText: 'Match Odds' });
  await market.waitFor();
  const figures = await cellsByLabel(market);
  assert.deepEqual([figures['P&L'], figures.Commission, figures.Net], ['₹150.00', '₹7.50', statementCredit]);
  assert.equal((await cellsByLabel(table.getByTestId('report-totals'))).Net, statementCredit);
  assert.match(await page.getByTestId('pl-trail').innerText(), new RegExp(`All sports\\s*›\\s*Cricket\\s*›\\s*${MATCH_NAME}`));
  await assertFitsEveryViewport(page, 'history-pl-markets');

  // The market opens the bet it settled.
  await market.getByTestId('pl-open').click();
  const modal = page.getByTestId('settled-bets-modal');
  assert.equal(await modal.getByTestId('settled-bet-pnl').innerText(), '₹150.00');
  await modal.getByTestId('modal-close').click();
  assert.deepEqual(pageErrors, []);
});

test('on a phone: Bet History shows the settled bet as the statement does, and Current Bets what a live bet risks', async () => {
  await page.setViewportSize(VIEWPORTS.phone);
  await fromUserMenu('menu-bet-history', 'bet-history-page');
  assert.equal(await page.evaluate(() => location.hash), '#/report/bet-history');
  const table = page.getByTestId('report-table');
  const bet = table.locator('tbody tr').filter({ hasText: MATCH_NAME });
  await bet.waitFor();
  const cells = await cellsByLabel(bet);
  assert.deepEqual(
    [cells.Market, cells.Selection, cells.Type, cells.Price, cells.Stake, cells.Status, cells['P&L'], cells.Commission, cells.Net],
    ['Match Odds', 'Herons', 'Back', '2.50', '₹100.00', 'Settled', '₹150.00', '₹7.50', statementCredit],
  );
  const totals = await cellsByLabel(table.getByTestId('report-totals'));
  assert.equal(totals.Net, statementCredit, 'the demo bettor has no other closed bet');
  await assertFitsEveryViewport(page, 'history-bets');

  // Narrowed to lays, the settled back is gone.
  await page.setViewportSize(VIEWPORTS.phone);
  await page.getByTestId('filter-side').selectOption('lay');
  await page.getByTestId('filter-submit').click();
  await table.getByText('No data available in table').waitFor();

  await fromUserMenu('menu-current-bet', 'current-bet-page');
  const live = page.getByTestId('report-table').locator('tbody tr').filter({ hasText: 'Winner (live)' });
  await live.waitFor();
  const risk = await cellsByLabel(live);
  // A lay of 40.00 at 3.00 risks 80.00 to win the 40.00 stake.
  assert.deepEqual([risk.Type, risk.Liability, risk['Potential profit']], ['Lay', '₹80.00', '₹40.00']);
  await assertFitsEveryViewport(page, 'history-current-bets');
  assert.deepEqual(pageErrors, []);
});
