// @ts-check
// Editing an unmatched bet from Open Bets, as a bettor does: a lower stake keeps the bet (same
// id, its place in the queue), a new price replaces it with a new bet at the back; then Cancel
// all empties the market. At 1280 px, then the same at 390 px.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, logInAs, newPage, startServer } from '../harness.mjs';
import { VIEWPORTS, assertFitsViewport } from '../viewport.mjs';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
const tokens = { admin: '', demo: '' };
const ids = { match: 0, market: 0, owls: 0 };

/** A call that must succeed. @param {string} apiPath @param {unknown} body @param {string} token */
async function call(apiPath, body, token) {
  const answer = await server.api(apiPath, body, token);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** demo's unmatched bets as the server has them. */
async function unmatched() {
  return /** @type {{ bet_id: number, price: number, remaining: number }[]} */ (
    (await call('bet/openBets', { match_id: ids.match }, tokens.demo)).unmatched
  );
}

before(async () => {
  server = await startServer();
  tokens.admin = (await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' })).body.data.token;
  tokens.demo = (await server.api('user/login', { user_name: 'demo', password: 'Demo@1234' })).body.data.token;
  const series = await call('series/getSeries', { sport_id: 4, is_active: 1 }, tokens.admin);
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  ids.match = (await call('admin/match/create', { series_id: series[0].series_id, name: 'Owls v Hawks', open_date: openDate }, tokens.admin)).id;
  const market = await call('admin/market/create', { match_id: ids.match, type: 'match_odds', name: 'Match Odds', runners: ['Owls', 'Hawks'], bet_delay_s: 0 }, tokens.admin);
  ids.market = market.market_id;
  ids.owls = market.selection_ids[0];
  await call('admin/market/status', { market_id: ids.market, status: 'open' }, tokens.admin);
  browser = await launchBrowser();
  page = await newPage(browser);
  await logInAs(page, server.baseUrl, 'demo', 'Demo@1234');
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`at ${viewport.width} px: a lower stake keeps the bet, a new price replaces it, Cancel all empties the market (${label})`, async () => {
    await page.setViewportSize(viewport);
    const placed = await call('bet/placeBet', { market_id: ids.market, selection_id: ids.owls, side: 'lay', price: 2.5, stake: 400 }, tokens.demo);
    await page.goto(`${server.baseUrl}/#/match/matchdetail/${ids.match}`);
    // On a phone the open bets are a tab above the markets.
    if (label === 'phone') await page.getByTestId('board-bets-tab').click();
    await page.getByTestId('open-bets-unmatched-tab').click();
    const item = page.locator(`[data-testid="open-bet-unmatched"][data-bet-id="${placed.bet_id}"]`);
    await item.getByTestId('edit-bet').click();
    const editor = page.getByTestId('bet-editor');
    await editor.getByTestId('edit-stake').fill('300');
    await editor.getByTestId('edit-effect').filter({ hasText: 'Keeps its place in the queue.' }).waitFor();
    if (label === 'phone') await assertFitsViewport(page, 'bet-editor-390');
    await editor.getByTestId('edit-save').click();
    await item.filter({ hasText: 'Unmatched ₹300.00 of ₹400.00' }).waitFor();
    assert.deepEqual((await unmatched()).map((b) => [b.bet_id, b.remaining]), [[placed.bet_id, 300]]);

    // A new price: the bet is replaced by a new one at 2.60.
    await item.getByTestId('edit-bet').click();
    await editor.getByTestId('edit-odds').fill('2.6');
    await editor.getByTestId('edit-effect').filter({ hasText: 'new bet at the back of the queue' }).waitFor();
    await editor.getByTestId('edit-save').click();
    await item.waitFor({ state: 'detached' });
    const [replaced] = await unmatched();
    assert.notEqual(replaced.bet_id, placed.bet_id);
    assert.equal(replaced.price, 2.6);
    assert.equal(replaced.remaining, 300);
    await page.locator(`[data-testid="open-bet-unmatched"][data-bet-id="${replaced.bet_id}"]`).filter({ hasText: '2.60' }).waitFor();

    await page.getByTestId('cancel-all').click();
    await page.getByTestId('open-bets-empty').waitFor();
    assert.deepEqual(await unmatched(), []);
  });
}
