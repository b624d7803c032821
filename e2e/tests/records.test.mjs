// @ts-check
// True records, in the browser against the real server: a back filled at a better price than
// asked shows the matched price in open bets, Current Bets and the bets its statement line
// settled; a bookmaker rate that moves under the slip is asked about ("Rate changed from 251
// to 242 — accept?") and placed only once accepted. Money reads ₹1,00,000.00 throughout, and
// the pages fit 1280×800 and 390×844.
//
// The operator (admin API) makes a fresh match with its own markets, so no market-maker moves
// the prices under the test; a second bettor (demo2, through the API) offers the lay at 3.80.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readFile } from 'node:fs/promises';
import { csvRecords } from '../csv.mjs';
import { launchBrowser, logInAs, newPage, shoot, startServer } from '../harness.mjs';
import { exactly } from '../rupees.mjs';
import { assertFitsEveryViewport, VIEWPORTS } from '../viewport.mjs';

const MATCH_NAME = 'Kites v Falcons';
/** Waits that span the header's 5 s balance poll. */
const POLL_WAIT = { timeout: 15_000 };

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
const pageErrors = [];
let adminToken = '';
let demo2Token = '';
const ids = { match: 0, matchOdds: 0, kites: 0, bookmaker: 0, bmKites: 0, bmFalcons: 0 };

/** A call that must succeed. @param {string} apiPath @param {unknown} body @param {string} [token] */
async function must(apiPath, body, token = adminToken) {
  const answer = await server.api(apiPath, body, token);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** The bookmaker's posted rates on Kites (the rest fixed). @param {number} back */
const setKitesRate = (back) =>
  must('admin/market/rates', {
    market_id: ids.bookmaker,
    runners: [
      { selection_id: ids.bmKites, back, lay: back + 3 },
      { selection_id: ids.bmFalcons, back: 40, lay: 42 },
    ],
  });

/** @param {number} marketId @param {number} selectionId */
const runner = (marketId, selectionId) =>
  page.locator(`[data-testid="market"][data-market-id="${marketId}"] [data-testid="runner"][data-selection-id="${selectionId}"]`);

before(async () => {
  server = await startServer();
  adminToken = (await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' })).body.data.token;
  demo2Token = (await server.api('user/login', { user_name: 'demo2', password: 'Demo@1234' })).body.data.token;
  const series = (await server.api('series/getSeries', { sport_id: 4, is_active: 1 }, adminToken)).body.data;
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  ids.match = (await must('admin/match/create', { series_id: series[0].series_id, name: MATCH_NAME, open_date: openDate })).id;
  const matchOdds = await must('admin/market/create', { match_id: ids.match, type: 'match_odds', name: 'Match Odds', runners: ['Kites', 'Falcons'], bet_delay_s: 0 });
  ids.matchOdds = matchOdds.market_id;
  ids.kites = matchOdds.selection_ids[0];
  const bookmaker = await must('admin/market/create', { match_id: ids.match, type: 'bookmaker', name: 'Bookmaker', runners: ['Kites', 'Falcons'] });
  ids.bookmaker = bookmaker.market_id;
  [ids.bmKites, ids.bmFalcons] = bookmaker.selection_ids;
  await setKitesRate(251);
  for (const market of [ids.matchOdds, ids.bookmaker]) await must('admin/market/status', { market_id: market, status: 'open' });
  // demo2 offers Kites at 3.80: a lay waiting to be matched.
  await must('bet/placeBet', { market_id: ids.matchOdds, selection_id: ids.kites, side: 'lay', price: '3.80', stake: '100', client_ref: 'e2e-records-lay' }, demo2Token);

  browser = await launchBrowser();
  page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await logInAs(page, server.baseUrl);
  await page.getByTestId('balance').filter({ hasText: exactly(100_000) }).waitFor(POLL_WAIT);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a back at 3.75 filled at 3.80 shows 3.80 matched beside 3.75 asked in open bets and Current Bets', async () => {
  await page.goto(`${server.baseUrl}/#/match/matchdetail/${ids.match}`);
  await page.getByTestId('match-title').filter({ hasText: MATCH_NAME }).waitFor();
  const best = runner(ids.matchOdds, ids.kites).getByTestId('best-back');
  await best.filter({ hasText: '3.8' }).waitFor();
  await best.click();
  await page.getByTestId('slip-odds').fill('3.75');
  await page.getByTestId('slip-stake').fill('100');
  await page.getByTestId('place-bet').click();
  await page.getByTestId('bet-outcome').filter({ hasText: /matched/i }).waitFor();

  await page.getByTestId('open-bets-matched-tab').click();
  const bet = page.getByTestId('open-bet-matched').first();
  await bet.waitFor();
  assert.equal(await bet.getByTestId('open-bet-price').innerText(), '3.80');
  assert.match(await bet.getByTestId('open-bet-asked').innerText(), /asked 3\.75/);
  assert.match(await bet.innerText(), /Kites · Match Odds[\s\S]*Back[\s\S]*Matched ₹100\.00 of ₹100\.00/);
  // Backing 100 at 3.80 risks the stake: exposure ₹100.00 in the header.
  await page.getByTestId('exposure').filter({ hasText: exactly(100) }).waitFor(POLL_WAIT);
  await assertFitsEveryViewport(page, 'records-open-bets');

  await page.goto(`${server.baseUrl}/#/report/current-bet`);
  const row = page.getByTestId('report-table').locator('tbody tr').filter({ hasText: MATCH_NAME });
  await row.waitFor();
  const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(cells.slice(0, 8), [MATCH_NAME, 'Match Odds', 'Kites', 'Back', '3.80', '3.75', '₹100.00', '₹100.00']);
  await assertFitsEveryViewport(page, 'records-current-bets');
  assert.deepEqual(pageErrors, []);
});

test('on a phone, a bookmaker rate that moves under the slip is asked about and placed only once accepted', async () => {
  await page.setViewportSize(VIEWPORTS.phone);
  await page.goto(`${server.baseUrl}/#/match/matchdetail/${ids.match}`);
  await runner(ids.bookmaker, ids.bmKites).getByTestId('bm-back').filter({ hasText: '251' }).click();
  assert.equal(await page.getByTestId('slip-rate').innerText(), '251');
  await page.getByTestId('slip-stake').fill('100');

  // The operator moves the rate: the slip keeps 251 and asks.
  await setKitesRate(242);
  const question = page.getByTestId('rate-changed-text');
  await question.filter({ hasText: 'Rate changed from 251 to 242 — accept?' }).waitFor(POLL_WAIT);
  assert.equal(await page.getByTestId('slip-rate').innerText(), '251');
  assert.equal(await page.getByTestId('place-bet').isDisabled(), true);
  await shoot(page, 'records-rate-changed');

  await page.getByTestId('accept-rate').click();
  await question.waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('slip-rate').innerText(), '242');
  await page.getByTestId('place-bet').click();
  await page.getByTestId('bet-outcome').filter({ hasText: /matched/i }).waitFor();

  await page.getByTestId('open-bets-matched-tab').click();
  await page.getByTestId('open-bet-matched').filter({ hasText: 'Kites · Bookmaker' }).filter({ hasText: 'Back 242' }).waitFor();
  // Nothing was taken at 251: the server has the one bet at 242.
  const open = await must('bet/openBets', { match_id: ids.match }, (await server.api('user/login', { user_name: 'demo', password: 'Demo@1234' })).body.data.token);
  const bookmakerBets = open.matched.filter((/** @type {{ market_id: number }} */ b) => b.market_id === ids.bookmaker);
  assert.deepEqual(
    bookmakerBets.map((/** @type {{ price: number, avg_price_matched: number }} */ b) => [b.price, b.avg_price_matched]),
    [[242, 242]],
  );
  await page.setViewportSize(VIEWPORTS.desktop);
  assert.deepEqual(pageErrors, []);
});

test('the settlement line of the statement opens the bets it settled, at their matched price', async () => {
  await must('admin/market/result', { market_id: ids.matchOdds, winner_selection_id: ids.kites });
  // Kites won: 100 backed at 3.80 wins ₹280.00.
  await page.goto(`${server.baseUrl}/#/report/account-statement`);
  const line = page.getByTestId('report-table').locator('tbody tr').filter({ hasText: `${MATCH_NAME} / Match Odds: won` });
  await line.waitFor(POLL_WAIT);
  assert.match(await line.innerText(), /₹280\.00/);
  await assertFitsEveryViewport(page, 'records-statement');

  await line.getByTestId('statement-bets-link').click();
  const modal = page.getByTestId('settled-bets-modal');
  const bet = modal.getByTestId('settled-bet');
  await bet.waitFor();
  assert.equal(await bet.count(), 1);
  assert.equal(await bet.getByTestId('settled-bet-matched').innerText(), '3.80');
  assert.equal(await bet.getByTestId('settled-bet-pnl').innerText(), '₹280.00');
  await assertFitsEveryViewport(page, 'records-settled-bets');
  await modal.getByTestId('modal-close').click();

  // The statement downloads as CSV and parses: the same line, money in rupees, a date in ISO-8601.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-csv').click()]);
  assert.match(download.suggestedFilename(), /^statement-\d{4}-\d{2}-\d{2}\.csv$/);
  const records = csvRecords(await readFile(/** @type {string} */ (await download.path()), 'utf8'));
  const won = records.find((r) => r.description === `${MATCH_NAME} / Match Odds: won`);
  assert.ok(won, JSON.stringify(records));
  assert.equal(won.credit, '280.00');
  assert.match(won.date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(won.market_id, String(ids.matchOdds));
  assert.deepEqual(pageErrors, []);
});
