// @ts-check
// Correcting a result in Chromium (issue 28): admin → master (70%) → agent (40%) → client, set up
// through the API; the client backs YES 57 on a fancy for 1,000. On the console's Markets screen
// the operator declares a wrong result (80 runs: the client wins 1,000), the agent takes 1,500 of
// the client's chips back, and the operator corrects the result: the confirmation shows the
// client owing and the agent's and master's shares coming back, and wants a reason. The market
// is suspended again, the right result (48 runs: the client loses 1,000) is declared, and every
// balance and share is what 48 alone would have made of it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, logIn, newPage, shoot, startServer } from '../harness.mjs';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {string[]} */
const pageErrors = [];

before(async () => {
  server = await startServer({ extraArgs: ['--no-demo-feed', '--no-casino'] });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** An API call that must succeed; answers its data. @param {string} path @param {object} body @param {string} [token] */
async function call(path, body, token) {
  const answer = await server.api(path, body, token);
  assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** @param {string} name @param {string} password */
async function login(name, password) {
  return (await call('user/login', { user_name: name, password })).token;
}

/** Creates an account under `token`'s user, logs it in and sets its own password; answers [id, token]. */
async function account(/** @type {string} */ token, /** @type {string} */ name, /** @type {object} */ extra) {
  const created = await call('admin/user/create', { user_name: name, password: 'First@123', role: 'client', ...extra }, token);
  const own = await login(name, 'First@123');
  await call('user/changePassword', { master_password: 'First@123', new_password: 'Second@123', confirm_password: 'Second@123' }, own);
  return [created.user_id, own];
}

/** The balance of `token`'s user in paise. @param {string} token */
async function balancePaise(token) {
  const answer = await fetch(`${server.baseUrl}/api/user/getUserBalance`, { headers: { Authorization: `Bearer ${token}` } });
  return Math.round((await answer.json()).data.total_balance * 100);
}

/** What the agent's partnership report says is its own share, in paise. @param {string} token */
async function ownSharePaise(token) {
  return Math.round((await call('console/report/partnership', {}, token)).own_share * 100);
}

test('a wrong result is corrected from the console and the right one declared', async () => {
  const admin = await login('admin', 'Admin@1234');
  const [masterId, master] = await account(admin, 'opmaster', { role: 'agent', partnership: 70 });
  const [agentId, agent] = await account(master, 'opagent', { role: 'agent', partnership: 40 });
  const [clientId, client] = await account(agent, 'opclient', {});
  await call('admin/user/transfer', { user_id: masterId, amount: 10000, direction: 'deposit' }, admin);
  await call('admin/user/transfer', { user_id: agentId, amount: 5000, direction: 'deposit' }, master);
  await call('admin/user/transfer', { user_id: clientId, amount: 2000, direction: 'deposit' }, agent);
  const matchId = (await call('match/getMatches', { sport_id: 4 }, client))[0].match_id;
  const market = await call('admin/market/create', { match_id: matchId, type: 'fancy', name: 'Corrected 12 over runs', min_stake: 1, bet_delay_s: 0 }, admin);
  const marketId = market.market_id;
  await call('admin/market/status', { market_id: marketId, status: 'open' }, admin);
  await call('admin/market/rates', { market_id: marketId, line_no: 56, rate_no: 100, line_yes: 57, rate_yes: 100 }, admin);
  await call('bet/placeBet', { market_id: marketId, side: 'yes', price: 100, line: 57, stake: 1000 }, client);

  const page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${server.baseUrl}/#/login`);
  await logIn(page, 'admin', 'Admin@1234');
  await page.getByTestId('console-layout').waitFor();
  await page.goto(`${server.baseUrl}/#/console/markets/${matchId}`);
  const row = page.getByTestId(`catalogue-market-${marketId}`);

  /** Declares the fancy's run total through the result dialog. @param {string} runs */
  async function declare(runs) {
    await row.getByTestId('market-result').click();
    const dialog = page.getByTestId('result-dialog');
    await dialog.getByTestId('result-runs').fill(runs);
    await dialog.getByTestId('result-preview').waitFor();
    await dialog.getByTestId('result-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByTestId('catalogue-status').filter({ hasText: 'closed' }).waitFor();
  }

  // The wrong result: the client wins 1,000; the house lost it, shared 40% / 30% up the tree.
  await declare('80');
  assert.equal(await balancePaise(client), 3_000_00);
  assert.equal(await ownSharePaise(agent), -400_00);
  await call('admin/user/transfer', { user_id: clientId, amount: 2500, direction: 'withdraw' }, agent);
  assert.equal(await balancePaise(client), 500_00);

  // The correction's confirmation: the client owes, the shares come back; a reason is needed.
  await row.getByTestId('market-correct').click();
  const dialog = page.getByTestId('correction-dialog');
  const clientLine = dialog.getByTestId(`correction-client-${clientId}`);
  await clientLine.waitFor();
  assert.match(await clientLine.innerText(), /opclient/);
  assert.match(await clientLine.innerText(), /-₹\s?1,000\.00|−₹\s?1,000\.00|-1,000\.00/);
  assert.match(await clientLine.innerText(), /owes/);
  assert.match(await dialog.getByTestId(`correction-share-${agentId}`).innerText(), /400\.00/);
  assert.match(await dialog.getByTestId(`correction-share-${masterId}`).innerText(), /300\.00/);
  await dialog.getByTestId('correction-negative').waitFor();
  await dialog.getByTestId('correction-confirm').click();
  await dialog.getByText(/Say why the result is being corrected/).waitFor();
  await dialog.getByTestId('correction-reason').fill('Scorer entered 80 for 48');
  await shoot(page, 'opday-correction-confirm');
  await dialog.getByTestId('correction-confirm').click();
  await dialog.waitFor({ state: 'detached' });
  await row.getByTestId('catalogue-status').filter({ hasText: 'suspended' }).waitFor();
  assert.equal(await balancePaise(client), -500_00, 'the client owes what it took out');
  assert.equal(await ownSharePaise(agent), 0);

  // The right result, as if it had been the only one.
  await declare('48');
  assert.equal(await balancePaise(client), 2_000_00 - 1_000_00 - 2_500_00);
  assert.equal(await ownSharePaise(agent), 400_00);
  assert.equal(Math.round((await call('console/report/partnership', {}, master)).own_share * 100), 300_00);
  const check = await fetch(`${server.baseUrl}/api/admin/ledger/check`, { headers: { Authorization: `Bearer ${admin}` } });
  assert.equal((await check.json()).data.sound, true);
  const audit = await call('admin/audit', { action: 'market.unsettle' }, admin);
  assert.equal(audit.rows[0].detail.reason, 'Scorer entered 80 for 48');
  assert.deepEqual(pageErrors, []);
});
