// @ts-check
// Issue 28's cash settlement and dashboard in Chromium, on the demo data: the demo client loses
// 1,000 on a fancy (and keeps 200 riding on another); the agent lands on its dashboard, whose
// figures equal the reports' own sums; then it records cash received from the client in the
// collection report, which shows it settled and what remains. The dashboard's screenshot is
// kept at docs/screenshots/dashboard.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freshPage, launchBrowser, logIn, startServer } from '../harness.mjs';
import { rupees } from '../rupees.mjs';

const SCREENSHOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots/dashboard.png');

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

/** Calls the API as `who` and answers the data of a 200. @param {string} who @param {string} apiPath @param {object} body */
async function call(who, apiPath, body) {
  const answer = await server.api(apiPath, body, who);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** Rupees to paise without float drift. @param {number} amount */
const paise = (amount) => Math.round(amount * 100);

test('the agent reads its dashboard, equal to the reports, and records cash received from a client', async () => {
  const [admin, agent, client] = await Promise.all([token('admin', 'Admin@1234'), token('agent', 'Agent@1234'), token('demo', 'Demo@1234')]);
  const matchId = (await call(client, 'match/getMatches', { sport_id: 4 }))[0].match_id;
  // The demo data has bets of its own today: the bets here are compared by what they add, once
  // the demo's market-maker (posting in the background) has placed all of its own.
  await server.waitForOutput(/demo market-maker: liquidity posted/);
  const baseline = await call(agent, 'console/dashboard', {});
  /** A fancy open at 56/57 even money. @param {string} name */
  const fancy = async (name) => {
    const market = await call(admin, 'admin/market/create', { match_id: matchId, type: 'fancy', name, min_stake: 1, bet_delay_s: 0 });
    await call(admin, 'admin/market/rates', { market_id: market.market_id, line_no: 56, rate_no: 100, line_yes: 57, rate_yes: 100 });
    await call(admin, 'admin/market/status', { market_id: market.market_id, status: 'open' });
    return market.market_id;
  };
  const lost = await fancy('Cash 6 over runs');
  await call(client, 'bet/placeBet', { market_id: lost, side: 'yes', price: 100, line: 57, stake: 1000 });
  await call(admin, 'admin/market/result', { market_id: lost, result: 50 });
  const open = await fancy('Cash 10 over runs');
  await call(client, 'bet/placeBet', { market_id: open, side: 'yes', price: 100, line: 57, stake: 200 });

  // The agent lands on the dashboard.
  const { page, errors } = await freshPage(browser, server.baseUrl);
  await logIn(page, 'agent', 'Agent@1234');
  await page.getByTestId('dashboard-page').waitFor();
  assert.equal(new URL(page.url()).hash, '#/console/dashboard');
  const figures = await call(agent, 'console/dashboard', {});
  const today = figures.from_date;
  // Each tile equals the sum of its report's rows, read the way the console reads them.
  const report = await call(agent, 'console/report/partnership', { from_date: today, to_date: today });
  const houseMinor = report.markets.reduce((/** @type {number} */ sum, /** @type {{ house_result: number }} */ m) => sum + paise(m.house_result), 0);
  assert.equal(paise(figures.house_result), houseMinor);
  assert.ok(houseMinor >= 100_000, `the client's loss is in it: ${houseMinor}`);
  await page.getByTestId('dashboard-house-result').getByText(rupees(houseMinor, 'minor'), { exact: true }).waitFor();
  let matchedMinor = 0;
  let bets = 0;
  for (const market of [lost, open]) {
    const listed = await call(agent, 'console/market/bets', { market_id: market, limit: 100 });
    for (const row of listed.rows) {
      matchedMinor += paise(row.matched);
      bets += 1;
    }
  }
  assert.equal(paise(figures.turnover) - paise(baseline.turnover), matchedMinor);
  assert.equal(figures.bets - baseline.bets, bets);
  await page.getByTestId('dashboard-turnover').getByText(rupees(paise(figures.turnover), 'minor'), { exact: true }).waitFor();
  const pending = await call(agent, 'admin/payment/list', { status: 'pending' });
  await page.getByTestId('dashboard-pending-payments').getByText(String(pending.total), { exact: true }).waitFor();
  const downline = await call(agent, 'console/downline/list', { limit: 100 });
  const exposureMinor = downline.rows.reduce((/** @type {number} */ sum, /** @type {{ exposure: number }} */ row) => sum + paise(row.exposure), 0);
  await page.getByTestId('dashboard-open-exposure').getByText(rupees(exposureMinor, 'minor'), { exact: true }).waitFor();
  const top = page.getByTestId('dashboard-top-market').filter({ hasText: 'Cash 10 over runs' });
  await top.waitFor();
  await page.getByTestId('dashboard-bar').first().waitFor();
  await page.screenshot({ path: SCREENSHOT, fullPage: true, animations: 'disabled' });

  // The collection report: the client owes what it lost; the agent records 600 received.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reports', exact: true }).click();
  await page.getByTestId('report-tab-collection').click();
  const row = page.getByTestId('report-collection-row').filter({ hasText: 'demo' }).first();
  const allTime = await call(agent, 'console/report/partnership', {});
  const demoRow = allTime.rows.find((/** @type {{ user_name: string }} */ r) => r.user_name === 'demo');
  const before = paise(demoRow.remaining);
  assert.ok(before >= 60_000, `demo owes at least 600: ${before}`);
  await row.getByTestId('report-settle').click();
  const dialog = page.getByTestId('settle-dialog');
  await dialog.getByTestId('settle-amount').fill('600');
  await dialog.getByTestId('settle-remark').fill('cash at the counter');
  await dialog.getByTestId('settle-submit').click();
  await dialog.waitFor({ state: 'detached' });
  await row.getByTestId('report-collection-settled').getByText(/^₹600\.00 on /).waitFor();
  await row.getByTestId('report-collection-remaining').getByText(rupees(before - 60_000, 'minor'), { exact: true }).waitFor();
  // The client's statement shows the cash it paid; its chips are where they were.
  const statement = await call(client, 'report/accountStatement', { type: 'cash' });
  assert.equal(statement.rows[0].description, 'Cash paid to agent: cash at the counter');
  assert.equal(paise(statement.rows[0].debit), 60_000);
  assert.deepEqual(errors, []);
});
