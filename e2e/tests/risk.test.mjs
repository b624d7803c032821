// @ts-check
// The console's market analysis in Chromium, against the real server: the operator opens a
// match's analysis, a bettor backs on the bookmaker from the API, and the house's position on
// that runner turns red without a reload (the stream reports the change, the screen asks for
// the analysis again); the bet shows in the bet list and opens the bettor's account records.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, logIn, newPage, startServer } from '../harness.mjs';
import { assertFitsEveryViewport } from '../viewport.mjs';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;

before(async () => {
  server = await startServer({ extraArgs: ['--no-demo-feed', '--no-casino'] });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** @param {string} userName @param {string} password */
async function token(userName, password) {
  return (await server.api('user/login', { user_name: userName, password })).body.data.token;
}

test("the operator watches the house's position move as the demo bettor bets", async () => {
  const admin = await token('admin', 'Admin@1234');
  /** @param {string} apiPath @param {object} body */
  const operator = async (apiPath, body) => {
    const answer = await server.api(apiPath, body, admin);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.data;
  };
  const series = (await server.api('series/getSeries', { sport_id: 4, is_active: 1 }, admin)).body.data;
  const openDate = new Date(Date.now() + 3_600_000).toISOString();
  const match = (await operator('admin/match/create', { series_id: series[0].series_id, name: 'Risk Lions v Risk Tigers', open_date: openDate })).id;
  const bookmaker = await operator('admin/market/create', { match_id: match, type: 'bookmaker', name: 'Bookmaker', runners: ['Lions', 'Tigers'], min_stake: 1 });
  await operator('admin/market/rates', {
    market_id: bookmaker.market_id,
    runners: [
      { selection_id: bookmaker.selection_ids[0], back: 40, lay: 42 },
      { selection_id: bookmaker.selection_ids[1], back: 150, lay: 155 },
    ],
  });
  await operator('admin/market/status', { market_id: bookmaker.market_id, status: 'open' });

  const page = await newPage(browser);
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.baseUrl}/#/login`);
  await logIn(page, 'admin', 'Admin@1234');
  await page.getByTestId('dashboard-page').waitFor();
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Risk' }).click();
  await page.getByTestId('risk-match-link').filter({ hasText: 'Risk Lions v Risk Tigers' }).click();
  const card = page.locator(`[data-testid="risk-market"][data-market-id="${bookmaker.market_id}"]`);
  const lions = card.getByTestId('risk-runner').filter({ hasText: 'Lions' });
  await lions.getByText('₹0.00').waitFor();

  // The demo backs Lions 100.00 at 40: if Lions win the house pays 40.00, else keeps 100.00.
  const demo = await token('demo', 'Demo@1234');
  const placed = await server.api('bet/placeBet', { market_id: bookmaker.market_id, selection_id: bookmaker.selection_ids[0], side: 'back', price: 40, stake: 100 }, demo);
  assert.equal(placed.status, 200, JSON.stringify(placed.body));
  await lions.locator('.pnl.lose').filter({ hasText: '-₹40.00' }).waitFor({ timeout: 10_000 });
  await card.getByTestId('risk-runner').filter({ hasText: 'Tigers' }).locator('.pnl.win').filter({ hasText: '₹100.00' }).waitFor();

  const bet = page.getByTestId('risk-bet-row').filter({ hasText: 'demo' });
  await bet.waitFor({ timeout: 10_000 });
  await assertFitsEveryViewport(page, 'console-risk');
  await bet.getByRole('link', { name: 'demo' }).click();
  await page.getByTestId('account-page').waitFor();
  await page.getByTestId('account-tab-bets').click();
  await page.getByTestId('account-bet-row').filter({ hasText: 'Bookmaker' }).waitFor();
  assert.deepEqual(errors, []);
});
