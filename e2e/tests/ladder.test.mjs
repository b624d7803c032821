// @ts-check
// A runner's full ladder and price chart against the real server, at 1280 and at 390 px: opened
// from the runner's row, it shows the bettor's own unmatched bet at its price far beyond the
// page's best three, what traded and the last price, follows a match made meanwhile without a
// reload, and a price clicked on it goes on the bet slip; the market's total matched sits beside
// its name.
//
// The operator (admin API) makes a fresh match with its own match-odds market, so the demo's
// market maker trades nothing here; the bettors' set-up bets go through the API.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, logInAs, newPage, shoot, startServer } from '../harness.mjs';
import { exactly } from '../rupees.mjs';
import { VIEWPORTS, assertFitsViewport } from '../viewport.mjs';

const MATCH_NAME = 'Falcons v Hawks';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
const pageErrors = [];
const tokens = { admin: '', demo: '', demo2: '' };
const ids = { match: 0, market: 0, falcons: 0, hawks: 0 };

/** A call that must succeed. @param {string} apiPath @param {unknown} body @param {string} token */
async function call(apiPath, body, token) {
  const answer = await server.api(apiPath, body, token);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** @param {string} token @param {'back' | 'lay'} side @param {string} price @param {string} stake */
const bet = (token, side, price, stake) =>
  call('bet/placeBet', { market_id: ids.market, selection_id: ids.falcons, side, price, stake }, token);

/** @param {string} userName */
const login = async (userName) => (await server.api('user/login', { user_name: userName, password: userName === 'admin' ? 'Admin@1234' : 'Demo@1234' })).body.data.token;

const dialog = () => page.getByTestId('ladder-modal');
/** @param {string} price  as the ladder writes it, e.g. '8.00' */
const row = (price) => dialog().locator(`[data-testid="ladder-row"][data-price="${price}"]`);
const falconsRow = () =>
  page.locator(`[data-testid="market"][data-market-id="${ids.market}"] [data-testid="runner"][data-selection-id="${ids.falcons}"]`);

before(async () => {
  server = await startServer();
  tokens.admin = await login('admin');
  tokens.demo = await login('demo');
  tokens.demo2 = await login('demo2');
  const series = (await server.api('series/getSeries', { sport_id: 4, is_active: 1 }, tokens.admin)).body.data;
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  ids.match = (await call('admin/match/create', { series_id: series[0].series_id, name: MATCH_NAME, open_date: openDate }, tokens.admin)).id;
  const market = await call('admin/market/create', { match_id: ids.match, type: 'match_odds', name: 'Match Odds', runners: ['Falcons', 'Hawks'], min_stake: 1, bet_delay_s: 0 }, tokens.admin);
  ids.market = market.market_id;
  [ids.falcons, ids.hawks] = market.selection_ids;
  await call('admin/market/status', { market_id: ids.market, status: 'open' }, tokens.admin);
  // demo2 lays Falcons at four prices (money to back there) and demo takes 30 of the best:
  // traded 30 at 1.90, the last price. Demo's own back at 8.00 waits, far past the best three.
  for (const [price, stake] of [['1.60', '40'], ['1.70', '50'], ['1.80', '60'], ['1.90', '70']]) {
    await bet(tokens.demo2, 'lay', price, stake);
  }
  await bet(tokens.demo, 'back', '1.90', '30');
  await bet(tokens.demo, 'back', '8.00', '25');
  await bet(tokens.demo2, 'back', '3.00', '15');
  await bet(tokens.demo2, 'back', '3.50', '15');
  await bet(tokens.demo2, 'back', '4.00', '15');

  browser = await launchBrowser();
  page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await logInAs(page, server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('at 1280 px the ladder shows the own order and the traded volume, follows a match live, and slips a price', async () => {
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto(`${server.baseUrl}/#/game-details/4/${ids.match}`);
  await page.getByTestId('match-title').filter({ hasText: MATCH_NAME }).waitFor();
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor({ state: 'attached' });
  const market = page.locator(`[data-testid="market"][data-market-id="${ids.market}"]`);
  assert.equal(await market.getByTestId('market-matched').innerText(), 'Matched ₹30.00');
  // The page shows the best three to lay (3.00, 3.50, 4.00), not demo's 8.00.
  const layLabels = await falconsRow()
    .getByRole('button', { name: /^Lay Falcons at/ })
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('aria-label')));
  assert.deepEqual(layLabels, ['Lay Falcons at 3', 'Lay Falcons at 3.5', 'Lay Falcons at 4']);

  await falconsRow().getByTestId('ladder-open').click();
  await dialog().waitFor();
  assert.match(await dialog().locator('.modal-header').innerText(), /Falcons · Match Odds/);
  await dialog().getByTestId('ladder-ltp').filter({ hasText: '1.90' }).waitFor();
  assert.equal(await dialog().getByTestId('ladder-total').innerText(), '₹30.00');
  assert.equal(await dialog().getByTestId('ladder-row').count(), 350);
  // Demo's own back at 8.00, in the lay column's money and in its own column; nobody else's.
  await row('8.00').scrollIntoViewIfNeeded();
  assert.equal(await row('8.00').getByTestId('ladder-my-back').innerText(), '25');
  assert.equal(await row('8.00').getByTestId('ladder-lay').innerText(), '25');
  assert.equal(await row('3.00').getByTestId('ladder-my-back').innerText(), '');
  assert.equal(await row('3.00').getByTestId('ladder-lay').innerText(), '15');
  await row('1.90').scrollIntoViewIfNeeded();
  assert.equal(await row('1.90').getByTestId('ladder-traded').innerText(), '30');
  assert.equal(await row('1.90').getByTestId('ladder-back').innerText(), '40');
  assert.equal(await row('1.60').getByTestId('ladder-back').innerText(), '40');
  assert.equal(await row('1.90').getAttribute('data-last'), 'true');
  await shoot(page, 'ladder-open');

  // Someone matches meanwhile: the ladder follows the stream, no reload.
  await bet(tokens.demo2, 'back', '1.90', '40');
  await row('1.90').getByTestId('ladder-traded').filter({ hasText: /^70$/ }).waitFor();
  await dialog().getByTestId('ladder-total').filter({ hasText: exactly('70.00') }).waitFor();
  assert.equal(await row('1.90').getByTestId('ladder-back').innerText(), '');
  await market.getByTestId('market-matched').filter({ hasText: 'Matched ₹70.00' }).waitFor();

  // The chart: one interval so far, its volume a bar.
  await dialog().getByTestId('chart-tab').click();
  await dialog().getByTestId('price-chart').waitFor();
  assert.ok((await dialog().getByTestId('chart-bar').count()) >= 1);
  await assertFitsViewport(page, 'ladder-chart-1280');
  await dialog().getByTestId('ladder-tab').click();

  // A price on the ladder goes on the slip.
  await row('1.80').getByRole('button', { name: 'Back Falcons at 1.80' }).click();
  await dialog().waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('slip-odds').inputValue(), '1.80');
  assert.match(await page.getByTestId('slip-side').innerText(), /Back/);
  assert.match(await page.getByTestId('slip-runner').innerText(), /Falcons/);
  assert.deepEqual(pageErrors, []);
});

test('at 390 px the ladder fills the screen, shows the own order and slips a lay price', async () => {
  await page.setViewportSize(VIEWPORTS.phone);
  await page.goto(`${server.baseUrl}/#/game-details/4/${ids.match}`);
  await page.getByTestId('match-title').filter({ hasText: MATCH_NAME }).waitFor();
  await page.locator(`[data-testid="market"][data-market-id="${ids.market}"]`).getByTestId('market-matched').filter({ hasText: 'Matched ₹70.00' }).waitFor();
  await falconsRow().getByTestId('ladder-open').click();
  await dialog().waitFor();
  const box = await dialog().boundingBox();
  assert.ok(box, 'the dialog is shown');
  assert.equal(Math.round(box.x), 0);
  assert.equal(Math.round(box.width), VIEWPORTS.phone.width);
  assert.ok(box.height >= VIEWPORTS.phone.height - 1, `the dialog is ${box.height} px high`);
  await row('8.00').scrollIntoViewIfNeeded();
  assert.equal(await row('8.00').getByTestId('ladder-my-back').innerText(), '25');
  await row('1.90').scrollIntoViewIfNeeded();
  assert.equal(await row('1.90').getByTestId('ladder-traded').innerText(), '70');
  await assertFitsViewport(page, 'ladder-390');

  await row('3.50').scrollIntoViewIfNeeded();
  await row('3.50').getByRole('button', { name: 'Lay Falcons at 3.50' }).click();
  await dialog().waitFor({ state: 'detached' });
  const slip = page.getByTestId('bet-slip');
  await slip.waitFor();
  assert.equal(await slip.getByTestId('slip-odds').inputValue(), '3.50');
  assert.match(await slip.getByTestId('slip-side').innerText(), /Lay/);
  assert.deepEqual(pageErrors, []);
});
