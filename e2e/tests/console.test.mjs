// @ts-check
// The operator's console in Chromium, against the real server with demo data: the operator
// logs in and lands on the console, makes an agent and gives it chips; the agent logs in
// (choosing its own password first), makes a client, gives it chips and bet-locks it from the
// client's terms; the client cannot open the console, and its bet is refused. On the Casino
// screen the operator switches an in-house table off, and a client's lobby no longer lists it
// until it is switched on again. Screenshots at 1280 and 390 px in e2e/screenshots/console-*.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chooseOwnPassword, createAccount, deposit, freshPage, launchBrowser, logIn, startServer } from '../harness.mjs';
import { assertFitsEveryViewport } from '../viewport.mjs';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** An open fancy market for the client's bet. */
let fancyMarket = 0;

/** An admin call that must succeed. @param {string} token @param {string} apiPath @param {unknown} body */
async function operator(token, apiPath, body) {
  const answer = await server.api(apiPath, body, token);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

before(async () => {
  server = await startServer({ extraArgs: ['--no-demo-feed', '--no-casino'] });
  browser = await launchBrowser();
  const token = (await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' })).body.data.token;
  const series = await operator(token, 'series/getSeries', { sport_id: 4, is_active: 1 });
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  const match = await operator(token, 'admin/match/create', { series_id: series[0].series_id, name: 'Console Lions v Console Tigers', open_date: openDate });
  fancyMarket = (await operator(token, 'admin/market/create', { match_id: match.id, type: 'fancy', name: '6 over runs Console Lions' })).market_id;
  await operator(token, 'admin/market/rates', { market_id: fancyMarket, line_no: 48, rate_no: 100, line_yes: 49, rate_yes: 100 });
  await operator(token, 'admin/market/status', { market_id: fancyMarket, status: 'open' });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** @param {import('playwright-core').Page} page */
const hashOf = (page) => new URL(page.url()).hash;

test('the operator makes an agent, the agent makes a client, the client stays out of the console', async () => {
  // The operator lands on the console, not the betting app.
  const operator = await freshPage(browser, server.baseUrl);
  await logIn(operator.page, 'admin', 'Admin@1234');
  await operator.page.getByTestId('dashboard-page').waitFor();
  assert.equal(hashOf(operator.page), '#/console/dashboard');
  // The admin's System card reads this server's own metrics: the demo's markets run, and this
  // log-in was counted.
  const system = operator.page.getByTestId('system-card');
  await system.waitFor();
  /** @param {string} id the tile's id, after `system-` */
  const tile = async (id) => Number(((await system.getByTestId(`system-${id}`).locator('dd').textContent()) ?? '').replace(/,/g, '').split(' / ')[0]);
  assert.ok((await tile('markets-running')) > 0, 'markets running');
  assert.ok((await tile('logins')) >= 1, 'log-ins ok');
  const nav = await operator.page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
  assert.deepEqual(nav.slice(0, 5), ['Dashboard', 'Downline', 'Payments', 'Audit log', 'Settings']);
  await operator.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Downline', exact: true }).click();
  await operator.page.getByTestId('downline-page').waitFor();

  // A taken name: the server's refusal shows next to the field.
  await operator.page.getByTestId('create-account').click();
  const dialog = operator.page.getByTestId('create-account-dialog');
  await dialog.getByTestId('create-user-name').fill('agent');
  await dialog.getByTestId('create-password').fill('Start@1234');
  await dialog.getByTestId('create-submit').click();
  const taken = dialog.locator('label:has([data-testid="create-user-name"]) .field-error');
  await taken.waitFor();
  assert.match((await taken.textContent()) ?? '', /agent/i);
  await dialog.getByTestId('modal-close').click();

  const agentRow = await createAccount(operator.page, 'mohan', 'Start@1234', { role: 'agent', partnership: '40' });
  await agentRow.getByText('never').waitFor();
  await deposit(operator.page, agentRow, '25000', 'opening chips', '₹25,000.00');
  await assertFitsEveryViewport(operator.page, 'console-downline');
  assert.deepEqual(operator.errors, []);
  await operator.page.close();

  // The agent chooses its own password first, then lands on the console with its own sections.
  const agent = await freshPage(browser, server.baseUrl);
  await logIn(agent.page, 'mohan', 'Start@1234');
  await chooseOwnPassword(agent.page, 'Start@1234', 'Mohan@2026');
  await agent.page.getByTestId('dashboard-page').waitFor();
  assert.equal(hashOf(agent.page), '#/console/dashboard');
  await agent.page.getByTestId('console-balance').filter({ hasText: '₹25,000.00' }).waitFor();
  assert.equal(await agent.page.getByTestId('system-card').count(), 0, 'no System card for an agent');
  assert.deepEqual(await agent.page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents(), ['Dashboard', 'Downline', 'Payments', 'Risk', 'Reports']);
  await agent.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Downline', exact: true }).click();
  await agent.page.getByText('No accounts yet: create one.').waitFor();

  const clientRow = await createAccount(agent.page, 'sita', 'Start@1234');
  await deposit(agent.page, clientRow, '1500.50', 'first chips', '₹1,500.50');
  await agent.page.getByTestId('console-balance').filter({ hasText: '₹23,499.50' }).waitFor();
  // The agent bet-locks the client: it may still log in, but not bet.
  await clientRow.getByTestId('row-terms').click();
  const terms = agent.page.getByTestId('terms-dialog');
  await terms.getByTestId('terms-bet-locked').check();
  await terms.getByTestId('terms-submit').click();
  await terms.waitFor({ state: 'detached' });
  await clientRow.getByTestId('downline-status').filter({ hasText: 'Bet-locked' }).waitFor();
  await assertFitsEveryViewport(agent.page, 'console-agent-downline');
  // The operator's screens are not the agent's, even by address.
  await agent.page.goto(`${server.baseUrl}/#/console/audit`);
  await agent.page.getByTestId('console-not-found').waitFor();
  assert.deepEqual(agent.errors, []);
  await agent.page.close();

  // The client plays in the betting app: the console sends it home, and the menu has no link to it.
  const client = await freshPage(browser, server.baseUrl);
  /** @type {string[]} */
  const consoleCalls = [];
  client.page.on('request', (request) => {
    if (/\/assets\/(ConsoleRoutes|DownlinePage)-/.test(request.url())) consoleCalls.push(request.url());
  });
  await logIn(client.page, 'sita', 'Start@1234');
  await chooseOwnPassword(client.page, 'Start@1234', 'Sita@2026');
  await client.page.getByTestId('home-page').waitFor();
  await client.page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  await client.page.getByTestId('balance').filter({ hasText: '1,500.50' }).waitFor();
  await client.page.goto(`${server.baseUrl}/#/console/downline`);
  await client.page.getByTestId('home-page').waitFor();
  assert.equal(hashOf(client.page), '#/');
  await client.page.getByTestId('user-menu-toggle').click();
  await client.page.getByTestId('menu-account-statement').waitFor();
  assert.equal(await client.page.getByTestId('menu-console').count(), 0);
  assert.deepEqual(consoleCalls, [], "the console's code is never fetched for a client");
  assert.deepEqual(client.errors, []);
  await client.page.close();

  const clientToken = (await server.api('user/login', { user_name: 'sita', password: 'Sita@2026' })).body.data.token;
  const refused = await server.api('bet/placeBet', { market_id: fancyMarket, side: 'yes', price: '100', line: 49, stake: '100', client_ref: 'e2e-bet-locked' }, clientToken);
  assert.equal(refused.status, 422, JSON.stringify(refused.body));
  assert.match(refused.body.message, /Betting is locked/);
});

test('the operator switches an in-house table off and the client lobby no longer lists it, then on again', async () => {
  const operator = await freshPage(browser, server.baseUrl);
  await logIn(operator.page, 'admin', 'Admin@1234');
  await operator.page.getByTestId('dashboard-page').waitFor();
  await operator.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Casino' }).click();
  const dragonTiger = operator.page.getByTestId('table-active-dt6');
  await dragonTiger.waitFor();
  assert.equal(await dragonTiger.isChecked(), true);
  await assertFitsEveryViewport(operator.page, 'console-casino');

  // The client in a browser of its own: the tabs of one browser share one session.
  const clientBrowser = await launchBrowser();
  const client = await freshPage(clientBrowser, server.baseUrl);
  await logIn(client.page, 'demo', 'Demo@1234');
  await client.page.getByTestId('home-page').waitFor();
  /** The in-house tables the lobby lists right now (its tiles link to /casino/match/<id>). */
  const lobby = async () => {
    // Loaded afresh each time: the app keeps what it read before.
    if (hashOf(client.page) === '#/casino/list') await client.page.reload();
    else await client.page.goto(`${server.baseUrl}/#/casino/list`);
    const tiles = client.page.getByTestId('casino-games').getByRole('link');
    await tiles.first().waitFor();
    return tiles.allTextContents();
  };
  const listed = await lobby();
  assert.ok(listed.includes('DT 1 DAY'), `Dragon Tiger is in the lobby: ${listed.join(', ')}`);

  await dragonTiger.click();
  await operator.page.getByTestId('casino-table-dt6').getByText('Off').waitFor();
  const without = await lobby();
  assert.ok(!without.includes('DT 1 DAY'), `Dragon Tiger is off: ${without.join(', ')}`);
  assert.equal(without.length, listed.length - 1);

  await dragonTiger.click();
  await operator.page.getByTestId('casino-table-dt6').getByText('On', { exact: true }).waitFor();
  assert.deepEqual(await lobby(), listed);
  assert.deepEqual(operator.errors, []);
  assert.deepEqual(client.errors, []);
  await operator.page.close();
  await clientBrowser.close();
});
