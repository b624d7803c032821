// @ts-check
// Quick betting as a bettor uses it, at 1280 and 390 px: with "Accept any change" a bookmaker
// bet places at the first press while the operator moves the rate; with one-click betting on, a
// tap on a price holds the bet with Undo and then places it at the chosen stake.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, logInAs, newPage, pollUntil, startServer } from '../harness.mjs';
import { VIEWPORTS } from '../viewport.mjs';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
const tokens = { admin: '', demo: '', demo2: '' };
const ids = { match: 0, bookmaker: 0, bmOwls: 0, bmHawks: 0, odds: 0, owls: 0 };

/** A call that must succeed. @param {string} apiPath @param {unknown} body @param {string} token */
async function call(apiPath, body, token) {
  const answer = await server.api(apiPath, body, token);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** demo's preferences as the server keeps them (a GET, which `server.api` does not send). */
async function storedPreferences() {
  const response = await fetch(`${server.baseUrl}/api/user/preferences`, { headers: { Authorization: `Bearer ${tokens.demo}` } });
  return /** @type {{ one_click: boolean, one_click_stake: number | null }} */ ((await response.json()).data);
}

/** @param {number} back */
async function postRates(back) {
  await call('admin/market/rates', { market_id: ids.bookmaker, runners: [{ selection_id: ids.bmOwls, back, lay: back + 2 }, { selection_id: ids.bmHawks, back: 150, lay: 155 }] }, tokens.admin);
}

/**
 * Waits until the page shows the bettor's own positions (a Cash Out bar on each market where
 * they hold matched bets): they are merged into the public books after the first paint, and the
 * bar they bring moves the rows below it, under a tap made meanwhile.
 */
async function positionsShown() {
  const open = await call('bet/openBets', { match_id: ids.match }, tokens.demo);
  const held = new Set(open.matched.map((/** @type {{ market_id: number }} */ b) => b.market_id));
  for (const id of held) await page.locator(`[data-testid="market"][data-market-id="${id}"] [data-testid="cash-out"]`).waitFor();
}

before(async () => {
  server = await startServer();
  for (const [name, password] of [['admin', 'Admin@1234'], ['demo', 'Demo@1234'], ['demo2', 'Demo@1234']]) {
    tokens[/** @type {'admin' | 'demo' | 'demo2'} */ (name)] = (await server.api('user/login', { user_name: name, password })).body.data.token;
  }
  const series = await call('series/getSeries', { sport_id: 4, is_active: 1 }, tokens.admin);
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  ids.match = (await call('admin/match/create', { series_id: series[0].series_id, name: 'Owls v Hawks', open_date: openDate }, tokens.admin)).id;
  const bookmaker = await call('admin/market/create', { match_id: ids.match, type: 'bookmaker', name: 'Bookmaker', runners: ['Owls', 'Hawks'] }, tokens.admin);
  ids.bookmaker = bookmaker.market_id;
  [ids.bmOwls, ids.bmHawks] = bookmaker.selection_ids;
  await postRates(40);
  const odds = await call('admin/market/create', { match_id: ids.match, type: 'match_odds', name: 'Match Odds', runners: ['Owls', 'Hawks'], bet_delay_s: 0 }, tokens.admin);
  ids.odds = odds.market_id;
  ids.owls = odds.selection_ids[0];
  for (const market of [ids.bookmaker, ids.odds]) await call('admin/market/status', { market_id: market, status: 'open' }, tokens.admin);
  // Someone to back against: demo2's lay of Owls at 2.50.
  await call('bet/placeBet', { market_id: ids.odds, selection_id: ids.owls, side: 'lay', price: 2.5, stake: 5000 }, tokens.demo2);
  browser = await launchBrowser();
  page = await newPage(browser);
  await logInAs(page, server.baseUrl, 'demo', 'Demo@1234');
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`at ${viewport.width} px: a bookmaker bet with "Accept any change" places at the first press as the rate moves (${label})`, async () => {
    await page.setViewportSize(viewport);
    await call('user/preferences', { one_click: false, accept_rate_changes: 'exact' }, tokens.demo);
    await page.goto(`${server.baseUrl}/#/match/matchdetail/${ids.match}`);
    // Preferences set through the API are read by a fresh page (a page keeps its own for a minute).
    await page.reload();
    await positionsShown();
    const bm = page.locator(`[data-testid="market"][data-market-id="${ids.bookmaker}"] [data-testid="runner"][data-selection-id="${ids.bmOwls}"]`);
    await bm.getByTestId('bm-back').click();
    await page.getByTestId('rate-changes').selectOption('any');
    await page.getByTestId('slip-stake').fill('100');
    // The desk moves the rate twice before the press: nothing asks.
    await postRates(42);
    await page.getByTestId('slip-rate').filter({ hasText: '42' }).waitFor();
    await postRates(44);
    await page.getByTestId('slip-rate').filter({ hasText: '44' }).waitFor();
    assert.equal(await page.getByTestId('rate-changed').count(), 0, 'no rate question');
    await page.getByTestId('place-bet').click();
    await page.getByTestId('bet-outcome').filter({ hasText: 'Bet matched.' }).waitFor();
    const open = await call('bet/openBets', { match_id: ids.match }, tokens.demo);
    assert.ok(open.matched.some((/** @type {{ market_id: number, price: number }} */ b) => b.market_id === ids.bookmaker && b.price === 44), JSON.stringify(open.matched));
  });

  test(`at ${viewport.width} px: one-click betting holds a tapped price with Undo, then places it (${label})`, async () => {
    await page.setViewportSize(viewport);
    await call('user/preferences', { one_click: false }, tokens.demo);
    await page.goto(`${server.baseUrl}/#/match/matchdetail/${ids.match}`);
    await page.reload();
    await positionsShown();
    const owls = page.locator(`[data-testid="market"][data-market-id="${ids.odds}"] [data-testid="runner"][data-selection-id="${ids.owls}"]`);
    // The settings are on the slip: open it once, choose the stake, turn one-click on.
    await owls.getByTestId('best-back').click();
    await page.getByTestId('one-click-stake').fill('120');
    await page.getByTestId('one-click-toggle').check();
    const saved = await pollUntil(storedPreferences, (p) => p.one_click, { timeoutMs: 5_000 });
    assert.equal(saved.one_click_stake, 120);
    await page.getByTestId('slip-close').click();
    const before = (await call('bet/openBets', { match_id: ids.match }, tokens.demo)).matched.length;
    await owls.getByTestId('best-back').click();
    await page.getByTestId('one-click-bar').filter({ hasText: 'Placing Back Owls 2.50 for ₹120.00' }).waitFor();
    await page.getByTestId('one-click-undo').click();
    await page.waitForTimeout(2_500);
    assert.equal((await call('bet/openBets', { match_id: ids.match }, tokens.demo)).matched.length, before, 'undone: nothing placed');
    await owls.getByTestId('best-back').click();
    await page.getByTestId('bet-outcome').filter({ hasText: 'Bet matched.' }).waitFor({ timeout: 6_000 });
    const matched = (await call('bet/openBets', { match_id: ids.match }, tokens.demo)).matched;
    assert.equal(matched.length, before + 1);
    await call('user/preferences', { one_click: false }, tokens.demo);
  });
}
