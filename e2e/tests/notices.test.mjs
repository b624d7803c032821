// @ts-check
// Notices: a bettor whose resting bet is matched later by someone else is told at once (a toast
// and the bell's count) on whatever page they are, and finds it in the bell's list after a
// reload; the settlement is told the same way. A log-in from a new device (the browser, after
// this test's log-in from Node) is told too. At 1280 and 390 px wide.
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
/** @type {string[]} */
const pageErrors = [];
const tokens = { admin: '', demo: '', demo2: '' };
const ids = { market: 0, lions: 0 };

/** A call that must succeed. @param {string} apiPath @param {unknown} body @param {string} token */
async function call(apiPath, body, token) {
  const answer = await server.api(apiPath, body, token);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

before(async () => {
  server = await startServer();
  for (const [name, password] of [['admin', 'Admin@1234'], ['demo', 'Demo@1234'], ['demo2', 'Demo@1234']]) {
    tokens[/** @type {'admin' | 'demo' | 'demo2'} */ (name)] = (await server.api('user/login', { user_name: name, password })).body.data.token;
  }
  const series = await call('series/getSeries', { sport_id: 4, is_active: 1 }, tokens.admin);
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  const match = await call('admin/match/create', { series_id: series[0].series_id, name: 'Owls v Hawks', open_date: openDate }, tokens.admin);
  const market = await call('admin/market/create', { match_id: match.id, type: 'match_odds', name: 'Match Odds', runners: ['Owls', 'Hawks'], bet_delay_s: 0 }, tokens.admin);
  ids.market = market.market_id;
  ids.lions = market.selection_ids[0];
  await call('admin/market/status', { market_id: ids.market, status: 'open' }, tokens.admin);
  browser = await launchBrowser();
  page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize(VIEWPORTS.desktop);
  await logInAs(page, server.baseUrl, 'demo', 'Demo@1234');
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the browser\'s log-in after one from Node is a new device, told on the bell with a way to the log-in history', async () => {
  await page.getByTestId('notice-count').filter({ hasText: '1' }).waitFor();
  await page.getByTestId('notice-bell').click();
  const item = page.getByTestId('notice-list').getByTestId('notice-item');
  await item.first().waitFor();
  assert.equal(await item.count(), 1);
  assert.match(await item.first().innerText(), /New device\s*New log-in from .*Chrome.* at 127\.0\.0\.1\./);
  await item.first().getByRole('link', { name: /Not you\?/ }).click();
  await page.getByTestId('login-history-page').waitFor();
  await page.getByTestId('notice-count').waitFor({ state: 'detached' });
});

test('a resting bet matched later is toasted on a page with no stream of its own, and listed after a reload', async () => {
  // A page that follows nothing live: the app keeps the bettor's own notices stream open.
  await page.goto(`${server.baseUrl}/#/report/account-statement`);
  await page.getByTestId('notice-bell').waitFor();
  await assert.rejects(page.getByTestId('notice-count').waitFor({ timeout: 500 }), 'nothing unread yet');
  await call('bet/placeBet', { market_id: ids.market, selection_id: ids.lions, side: 'lay', price: 2.5, stake: 400 }, tokens.demo);
  // Give the app its own stream (opened once no page stream has been open for 2 s).
  await page.waitForTimeout(2_500);
  await call('bet/placeBet', { market_id: ids.market, selection_id: ids.lions, side: 'back', price: 2.5, stake: 150 }, tokens.demo2);

  const told = '₹150.00 of your ₹400.00 lay bet on Owls at 2.50 matched; the rest waits';
  await page.getByText(told).first().waitFor({ timeout: 5_000 });
  await page.getByTestId('notice-count').filter({ hasText: '1' }).waitFor();

  await page.reload();
  await page.getByTestId('notice-count').filter({ hasText: '1' }).waitFor();
  await page.getByTestId('notice-bell').click();
  const item = page.getByTestId('notice-list').getByTestId('notice-item');
  await item.nth(1).waitFor();
  assert.equal(await item.count(), 2, 'the match and the new device');
  assert.match(await item.first().innerText(), /Part matched/);
  assert.match(await item.first().innerText(), /lay bet on Owls at 2\.50 matched/);
  // Opening the list marked it read.
  await page.getByTestId('notice-count').waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');
});

test('on a phone, the settlement is told on the match page and the list fits the screen', async () => {
  await page.setViewportSize(VIEWPORTS.phone);
  const match = (await call('match/getMatches', { sport_id: 4 }, tokens.demo)).find(
    (/** @type {{ match_name: string }} */ m) => m.match_name === 'Owls v Hawks',
  );
  await page.goto(`${server.baseUrl}/#/match/matchdetail/${match.match_id}`);
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor({ state: 'attached' });
  await call('admin/market/result', { market_id: ids.market, winner_selection_id: ids.lions }, tokens.admin);
  // Owls won: demo's lay lost 150 × 1.50 = 225.00.
  await page.getByText('settled: you lost ₹225.00.').first().waitFor({ timeout: 5_000 });
  await page.getByTestId('notice-count').filter({ hasText: '1' }).waitFor();
  await page.getByTestId('notice-bell').click();
  const item = page.getByTestId('notice-list').getByTestId('notice-item');
  await item.nth(1).waitFor();
  assert.match(await item.first().innerText(), /Settled/);
  await assertFitsViewport(page, 'notices-list-390');
  const box = await page.getByTestId('notice-list').boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= VIEWPORTS.phone.width, `the list is on the screen: ${JSON.stringify(box)}`);
  assert.deepEqual(pageErrors, []);
});
