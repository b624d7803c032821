// @ts-check
// Cash out as a bettor does it: with a back matched at 3.00 and the price now 2.00, the market
// shows "Cash Out ₹50.00"; half of it first with the slider (₹25.00 sure, the rest stays
// open), then the rest; afterwards every runner shows the same position and the server agrees. At 1280 px,
// then the same at 390 px, each on a market of its own.
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
const tokens = { admin: '', demo: '', maker: '' };
let matchId = 0;

/** A call that must succeed. @param {string} apiPath @param {unknown} body @param {string} token */
async function call(apiPath, body, token) {
  const answer = await server.api(apiPath, body, token);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** demo's position on each runner of `marketId`, as the server has it. @param {number} marketId */
async function positions(marketId) {
  const detail = await call('match/matchDetail', { match_id: matchId }, tokens.demo);
  const market = detail.markets.find((/** @type {{ market_id: number }} */ m) => m.market_id === marketId);
  return market.runners.map((/** @type {{ position: number }} */ r) => r.position);
}

before(async () => {
  server = await startServer();
  const login = async (/** @type {string} */ name, /** @type {string} */ password) =>
    (await server.api('user/login', { user_name: name, password })).body.data.token;
  tokens.admin = await login('admin', 'Admin@1234');
  tokens.demo = await login('demo', 'Demo@1234');
  tokens.maker = await login('demo2', 'Demo@1234');
  const series = await call('series/getSeries', { sport_id: 4, is_active: 1 }, tokens.admin);
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  matchId = (await call('admin/match/create', { series_id: series[0].series_id, name: 'Kites v Larks', open_date: openDate }, tokens.admin)).id;
  browser = await launchBrowser();
  page = await newPage(browser);
  await logInAs(page, server.baseUrl, 'demo', 'Demo@1234');
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`at ${viewport.width} px: half a position cashed out keeps half open, the rest leaves the same whatever wins (${label})`, async () => {
    await page.setViewportSize(viewport);
    const created = await call('admin/market/create', { match_id: matchId, type: 'match_odds', name: `Match Odds ${label}`, runners: ['Kites', 'Larks'], min_stake: 1, bet_delay_s: 0 }, tokens.admin);
    const market = created.market_id;
    const [kites] = created.selection_ids;
    await call('admin/market/status', { market_id: market, status: 'open' }, tokens.admin);
    // demo backs Kites for 100.00 at 3.00 (+200.00 / −100.00); then Kites is offered to lay at 2.00.
    await call('bet/placeBet', { market_id: market, selection_id: kites, side: 'lay', price: 3, stake: 100 }, tokens.maker);
    await call('bet/placeBet', { market_id: market, selection_id: kites, side: 'back', price: 3, stake: 100 }, tokens.demo);
    await call('bet/placeBet', { market_id: market, selection_id: kites, side: 'back', price: 2, stake: 1000 }, tokens.maker);

    await page.goto(`${server.baseUrl}/#/match/matchdetail/${matchId}`);
    const board = page.locator(`[data-testid="market"][data-market-id="${market}"]`);
    const open = board.getByTestId('cash-out-open');
    await open.filter({ hasText: 'Cash Out ₹50.00' }).waitFor();
    await open.click();
    const panel = board.getByTestId('cash-out-panel');
    await panel.getByTestId('cash-out-after').filter({ hasText: 'Kites₹50.00' }).waitFor();
    await panel.getByTestId('cash-out-percent').fill('50');
    await panel.getByTestId('cash-out-after').filter({ hasText: 'Kites₹125.00' }).waitFor();
    await panel.filter({ hasText: '50% of your position stays open.' }).waitFor();
    await panel.getByTestId('cash-out-confirm').filter({ hasText: 'Cash out ₹25.00' }).waitFor();
    if (label === 'phone') await assertFitsViewport(page, 'cash-out-390');
    await panel.getByTestId('cash-out-confirm').click();
    await panel.waitFor({ state: 'detached' });
    await board.getByTestId('runner-position').first().filter({ hasText: '₹125.00' }).waitFor();
    assert.deepEqual(await positions(market), [125, -25]);

    // The rest: 50.00 whichever wins, and nothing left to cash out.
    await open.filter({ hasText: 'Cash Out ₹50.00' }).waitFor();
    await open.click();
    await panel.getByTestId('cash-out-confirm').filter({ hasText: '₹50.00' }).click();
    await board.getByTestId('cash-out-reason').filter({ hasText: 'already the same whatever wins' }).waitFor();
    assert.deepEqual(await positions(market), [50, 50]);
    const shown = await board.getByTestId('runner-position').allTextContents();
    assert.deepEqual(shown, ['₹50.00', '₹50.00']);
  });
}
