// @ts-check
// Issue 15's whole operator journey in Chromium, only through the console's screens and the
// client app, against one server with the demo data:
// 1. the operator makes a master (70%) and gives it chips; the master (its own password first)
//    makes an agent (40%) and gives it chips; the agent makes two clients and gives them chips;
// 2. the operator creates a match with a bookmaker and a fancy from the Markets screen, opens
//    them and sets rates and the line on the Trading desk's keys;
// 3. each client (a browser of its own) bets through the slip: one on the bookmaker, one on the
//    fancy;
// 4. the desk moves a rate, suspends (the client sees Suspended), reopens, turns ball running and
//    back, and declares both results after the confirmation;
// 5. the agent's and the master's Reports split the house's result by partnership (agent 40%,
//    master 70 − 40 = 30%), the collections balance to 0.00, and the master reads a client's P&L;
// 6. the operator's Audit log lists every step.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chooseOwnPassword, createAccount, deposit, freshPage, launchBrowser, logIn, newPage, pollUntil, startServer } from '../harness.mjs';
import { exactly, rupees } from '../rupees.mjs';

const MATCH_NAME = 'Journey Kings v Journey Riders';
const GIVEN_PASSWORD = 'Start@1234';
/** The accounts: who creates them, their role and partnership, their chips and own password. */
const MASTER = { name: 'ravi', password: 'Ravi@2026', partnership: '70', chips: '100000' };
const AGENT = { name: 'kiran', password: 'Kiran@2026', partnership: '40', chips: '20000' };
const BACKER = { name: 'asha', password: 'Asha@2026', chips: '5000' };
const LAYER = { name: 'vijay', password: 'Vijay@2026', chips: '3000' };
/** The brief: a desk key's change reaches a client within a second. */
const WITHIN_A_SECOND = { timeout: 1_000 };
/** Waits that span the client's 5 s balance poll. */
const POLL_WAIT = { timeout: 12_000 };

// The bets and results, and what they make of the house's result (positive: the clients lost).
// asha backs Kings at rate 40 for 100 and Kings win: she wins 40, the house −40.
// vijay bets NO 49 for 100 and the fancy ends at 60 runs: he loses 100, the house +100.
const STAKE = 100;
const BACKER_HOUSE = -40;
const LAYER_HOUSE = 100;
const HOUSE = BACKER_HOUSE + LAYER_HOUSE;
/** A share of the house's result in rupees, at a partnership in percent (integer paise). */
const share = (/** @type {number} */ house, /** @type {number} */ percent) => Math.round(house * percent) / 100;

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let consoleBrowser;
/** @type {import('../harness.mjs').Browser} */
let backerBrowser;
/** @type {import('../harness.mjs').Browser} */
let layerBrowser;
/** @type {string[]} */
const pageErrors = [];

before(async () => {
  server = await startServer({ extraArgs: ['--no-demo-feed', '--no-casino'] });
  [consoleBrowser, backerBrowser, layerBrowser] = await Promise.all([launchBrowser(), launchBrowser(), launchBrowser()]);
});

after(async () => {
  await Promise.all([consoleBrowser?.close(), backerBrowser?.close(), layerBrowser?.close()]);
  await server?.stop();
});

/**
 * Logs `userName` in to the console in the console's browser, on a tab of its own (whoever used
 * the browser before is logged out), choosing its own password on a first log-in.
 * @param {string} userName @param {string} password @param {string} [own]  the password to choose first
 */
async function consoleAs(userName, password, own) {
  const { page, errors } = await freshPage(consoleBrowser, server.baseUrl);
  page.on('close', () => pageErrors.push(...errors.map((e) => `${userName}: ${e}`)));
  await logIn(page, userName, password);
  if (own) await chooseOwnPassword(page, password, own);
  await page.getByTestId('console-layout').waitFor();
  assert.match(new URL(page.url()).hash, /^#\/console/);
  return page;
}

/** @param {import('playwright-core').Page} page @param {string} section  the nav's link text */
async function openSection(page, section) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: section, exact: true }).click();
}

/**
 * A client's first log-in in its own browser: its own password, then the betting app.
 * @param {import('../harness.mjs').Browser} browser @param {{ name: string, password: string }} client
 */
async function clientAs(browser, client) {
  const page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(`${client.name}: ${error.message}`));
  await page.goto(`${server.baseUrl}/#/login`);
  await logIn(page, client.name, GIVEN_PASSWORD);
  await chooseOwnPassword(page, GIVEN_PASSWORD, client.password);
  await page.getByTestId('home-page').waitFor();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  return page;
}

/** The cells of a table row as the page shows them. @param {import('playwright-core').Locator} row */
async function cells(row) {
  return (await row.locator('td, th').allInnerTexts()).map((text) => text.trim());
}

/** A row of the P&L table by its name. @param {import('playwright-core').Page} page @param {string} name */
const pnlRow = (page, name) => page.getByTestId('report-pnl-row').filter({ has: page.getByRole('cell', { name, exact: true }) });

/** What a report's summary line shows. @param {import('playwright-core').Page} page @param {string} testId */
const summary = async (page, testId) => (await page.getByTestId(testId).locator('dd').innerText()).trim();

test('the operator builds the agent tree, runs a match from the desk, and the reports split the result', { timeout: 120_000 }, async () => {
  const started = Date.now();
  const step = (/** @type {string} */ what) => console.log(`${((Date.now() - started) / 1000).toFixed(1)} s  ${what}`);

  // 1. The tree: operator → master (70%) → agent (40%) → two clients, each with chips.
  let admin = await consoleAs('admin', 'Admin@1234');
  const masterRow = await createAccount(admin, MASTER.name, GIVEN_PASSWORD, { role: 'agent', partnership: MASTER.partnership });
  await deposit(admin, masterRow, MASTER.chips, 'opening chips', rupees(MASTER.chips));
  await admin.close();

  let master = await consoleAs(MASTER.name, GIVEN_PASSWORD, MASTER.password);
  await master.getByTestId('console-balance').filter({ hasText: exactly(MASTER.chips) }).waitFor();
  const agentRow = await createAccount(master, AGENT.name, GIVEN_PASSWORD, { role: 'agent', partnership: AGENT.partnership });
  await deposit(master, agentRow, AGENT.chips, 'agent chips', rupees(AGENT.chips));
  await master.getByTestId('console-balance').filter({ hasText: exactly(Number(MASTER.chips) - Number(AGENT.chips)) }).waitFor();
  await master.close();

  let agent = await consoleAs(AGENT.name, GIVEN_PASSWORD, AGENT.password);
  for (const client of [BACKER, LAYER]) {
    const row = await createAccount(agent, client.name, GIVEN_PASSWORD);
    await deposit(agent, row, client.chips, 'first chips', rupees(client.chips));
  }
  const agentLeft = Number(AGENT.chips) - Number(BACKER.chips) - Number(LAYER.chips);
  await agent.getByTestId('console-balance').filter({ hasText: exactly(agentLeft) }).waitFor();
  await agent.close();
  step('tree built');

  // 2. The match and its markets from the Markets screen, opened; rates and line on the desk.
  admin = await consoleAs('admin', 'Admin@1234');
  await openSection(admin, 'Markets');
  const matchForm = admin.getByTestId('match-form');
  await matchForm.getByTestId('match-series').locator('option').nth(1).waitFor({ state: 'attached' });
  await matchForm.getByTestId('match-series').selectOption({ index: 1 });
  await matchForm.getByTestId('match-name').fill(MATCH_NAME);
  await matchForm.getByTestId('match-start').fill('2030-06-01T14:00');
  await matchForm.getByRole('button', { name: 'Create match' }).click();
  const markets = admin.getByTestId('catalogue-match-markets');
  await markets.getByRole('heading', { name: MATCH_NAME }).waitFor();
  const matchId = Number(new URL(admin.url()).hash.split('/').at(-1));
  assert.ok(matchId > 0, admin.url());

  const marketForm = admin.getByTestId('market-form');
  await marketForm.getByTestId('market-type').selectOption('bookmaker');
  await marketForm.getByTestId('market-name').fill('Bookmaker');
  await marketForm.getByTestId('market-runners').fill('Journey Kings\nJourney Riders');
  await marketForm.getByRole('button', { name: 'Create market' }).click();
  // The form clears itself once the market is made; the fancy goes in after.
  await markets.getByTestId('catalogue-markets').getByText('Bookmaker', { exact: true }).waitFor();
  await marketForm.getByTestId('market-type').selectOption('fancy');
  await marketForm.getByTestId('market-name').fill('6 over runs Kings');
  await marketForm.getByRole('button', { name: 'Create market' }).click();
  /** A market's row on the Markets screen and its id (the row's test id ends in it). @param {string} name */
  const catalogueRow = async (name) => {
    const row = markets.locator('[data-testid^="catalogue-market-"]').filter({ has: admin.getByText(name, { exact: true }) });
    await row.waitFor();
    return { row, id: Number((await row.getAttribute('data-testid'))?.split('-').at(-1)) };
  };
  const bookmaker = await catalogueRow('Bookmaker');
  const fancy = await catalogueRow('6 over runs Kings');
  for (const { row } of [bookmaker, fancy]) {
    await row.getByTestId('market-open').click();
    await row.getByTestId('catalogue-status').filter({ hasText: 'open' }).waitFor();
  }

  await markets.getByTestId('catalogue-open-desk').click();
  await admin.getByTestId('desk-keymap').waitFor();
  await admin.getByTestId('desk-connection').filter({ hasText: 'Live' }).waitFor();
  const deskRow = (/** @type {number} */ id) => admin.getByTestId(`desk-row-${id}`);
  await deskRow(bookmaker.id).waitFor();
  assert.equal(await deskRow(bookmaker.id).getAttribute('aria-selected'), 'true');
  const deskRunner = (/** @type {number} */ index) => deskRow(bookmaker.id).getByTestId('desk-runner').nth(index);
  // Kings back 40 (lay 45 at the desk's spread); → to Riders, back 150.
  await admin.keyboard.type('40');
  await admin.keyboard.press('Enter');
  await deskRunner(0).filter({ hasText: '40' }).waitFor();
  await admin.keyboard.press('l');
  await admin.keyboard.type('150');
  await admin.keyboard.press('Enter');
  await deskRunner(1).filter({ hasText: '150' }).waitFor();
  // Down to the fancy: NO and YES at 49.
  await admin.keyboard.press('j');
  assert.equal(await deskRow(fancy.id).getAttribute('aria-selected'), 'true');
  await admin.keyboard.type('49');
  await admin.keyboard.press('Enter');
  await deskRow(fancy.id).getByTestId('desk-line-no').filter({ hasText: '49' }).waitFor();
  step('match, markets and rates set');

  // 3. Each client in a browser of its own opens the match and bets through the slip.
  const [backer, layer] = await Promise.all([clientAs(backerBrowser, BACKER), clientAs(layerBrowser, LAYER)]);
  for (const page of [backer, layer]) {
    await page.goto(`${server.baseUrl}/#/match/matchdetail/${matchId}`);
    await page.getByTestId('match-title').filter({ hasText: MATCH_NAME }).waitFor();
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor({ state: 'attached' });
  }
  const backerMarket = backer.locator(`[data-testid="market"][data-market-id="${bookmaker.id}"]`);
  const kings = backerMarket.getByTestId('runner').filter({ hasText: 'Journey Kings' });
  const fancyRow = layer.locator(`[data-testid="fancy-row"][data-market-id="${fancy.id}"]`);

  await kings.getByTestId('bm-back').filter({ hasText: '40' }).click();
  assert.equal(await backer.getByTestId('slip-rate').innerText(), '40');
  await backer.getByTestId('slip-stake').fill(String(STAKE));
  assert.equal(await backer.getByTestId('slip-profit').innerText(), rupees(40));
  await backer.getByTestId('place-bet').click();
  assert.match(await backer.getByTestId('bet-outcome').innerText(), /Bet matched/);

  await fancyRow.getByTestId('fancy-no').filter({ hasText: '49' }).click();
  assert.equal(await layer.getByTestId('slip-rate').innerText(), '49 / 100');
  await layer.getByTestId('slip-stake').fill(String(STAKE));
  await layer.getByTestId('place-bet').click();
  assert.match(await layer.getByTestId('bet-outcome').innerText(), /Bet matched/);
  step('both bets placed');

  // 4. The desk moves Kings' rate, suspends and reopens the bookmaker, runs the fancy's ball.
  await admin.keyboard.press('k');
  await admin.keyboard.press('h');
  await admin.keyboard.press(']');
  await kings.getByTestId('bm-back').filter({ hasText: '41' }).waitFor(WITHIN_A_SECOND);
  await kings.getByTestId('bm-lay').filter({ hasText: '46' }).waitFor(WITHIN_A_SECOND);
  await admin.keyboard.press('s');
  await deskRow(bookmaker.id).getByTestId('desk-status').filter({ hasText: 'suspended' }).waitFor();
  await backerMarket.getByTestId('status-overlay').first().filter({ hasText: /suspended/i }).waitFor(WITHIN_A_SECOND);
  await admin.keyboard.press('s');
  await backerMarket.getByTestId('status-overlay').first().waitFor({ state: 'detached', ...WITHIN_A_SECOND });
  await admin.keyboard.press('j');
  await admin.keyboard.press('b');
  await fancyRow.getByTestId('status-overlay').filter({ hasText: 'Ball Running' }).waitFor(WITHIN_A_SECOND);
  await admin.keyboard.press('b');
  await fancyRow.getByTestId('status-overlay').waitFor({ state: 'detached', ...WITHIN_A_SECOND });
  await deskRow(fancy.id).getByTestId('desk-status').filter({ hasText: 'open' }).waitFor();
  step('desk keys seen by the clients');

  // Both results, each after the confirmation shows what it moves.
  await admin.getByRole('link', { name: 'Results…' }).click();
  /**
   * @param {number} id @param {(dialog: import('playwright-core').Locator) => Promise<unknown>} outcome
   * @param {string} moves  the preview's figures
   */
  const declare = async (id, outcome, moves) => {
    const entry = admin.getByTestId(`catalogue-market-${id}`);
    await entry.getByTestId('market-result').click();
    const dialog = admin.getByTestId('result-dialog');
    await outcome(dialog);
    await dialog.getByTestId('result-preview').filter({ hasText: moves }).waitFor();
    await dialog.getByTestId('result-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await entry.getByTestId('catalogue-status').filter({ hasText: 'closed' }).waitFor();
  };
  await declare(
    bookmaker.id,
    (dialog) => dialog.getByTestId('result-winner').selectOption({ label: 'Journey Kings' }),
    `clients win ${rupees(-BACKER_HOUSE)}, lose ${rupees(0)}, house ${rupees(BACKER_HOUSE)}, 1 bets`,
  );
  await declare(
    fancy.id,
    (dialog) => dialog.getByTestId('result-runs').fill('60'),
    `clients win ${rupees(0)}, lose ${rupees(LAYER_HOUSE)}, house +${rupees(LAYER_HOUSE)}, 1 bets`,
  );
  await backer.getByTestId('balance').filter({ hasText: exactly(Number(BACKER.chips) - BACKER_HOUSE) }).waitFor(POLL_WAIT);
  await layer.getByTestId('balance').filter({ hasText: exactly(Number(LAYER.chips) - LAYER_HOUSE) }).waitFor(POLL_WAIT);
  await admin.close();
  step('results declared, balances moved');

  // 5. The agent's report: a row per client, the agent's 40% and the rest upline.
  const agentPercent = Number(AGENT.partnership);
  const masterPercent = Number(MASTER.partnership) - agentPercent;
  /** The P&L row of a client under the agent: house, downline (none), the agent's, the upline's. @param {string} name @param {number} house */
  const clientFigures = (name, house) => [name, '', rupees(house), rupees(0), rupees(share(house, agentPercent)), rupees(house - share(house, agentPercent))];
  const expectAgentsRows = async (/** @type {import('playwright-core').Page} */ page) => {
    await pnlRow(page, BACKER.name).waitFor();
    assert.deepEqual(await cells(pnlRow(page, BACKER.name)), clientFigures(BACKER.name, BACKER_HOUSE));
    assert.deepEqual(await cells(pnlRow(page, LAYER.name)), clientFigures(LAYER.name, LAYER_HOUSE));
  };
  agent = await consoleAs(AGENT.name, AGENT.password);
  await openSection(agent, 'Reports');
  await agent.getByTestId('report-partnership').filter({ hasText: `${AGENT.name}'s partnership: ${agentPercent}%` }).waitFor();
  await expectAgentsRows(agent);
  assert.deepEqual(await cells(agent.getByTestId('report-pnl-total')), ['Total', '', rupees(HOUSE), rupees(0), rupees(share(HOUSE, agentPercent)), rupees(HOUSE - share(HOUSE, agentPercent))]);
  // Collection: vijay owes what he lost, asha is owed her win; the agent pays its upline the rest.
  await agent.getByTestId('report-tab-collection').click();
  const collectionRow = (/** @type {import('playwright-core').Page} */ page, /** @type {string} */ name) =>
    page.getByTestId('report-collection-row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  // Then the cash settled (none yet), what remains and the Settle button.
  assert.deepEqual(await cells(collectionRow(agent, LAYER.name)), [LAYER.name, rupees(LAYER_HOUSE), '', '', rupees(LAYER_HOUSE), 'Settle']);
  assert.deepEqual(await cells(collectionRow(agent, BACKER.name)), [BACKER.name, '', rupees(-BACKER_HOUSE), '', rupees(BACKER_HOUSE), 'Settle']);
  assert.equal(await summary(agent, 'report-own-share'), rupees(share(HOUSE, agentPercent)));
  assert.equal(await summary(agent, 'report-pay-upline'), rupees(HOUSE - share(HOUSE, agentPercent)));
  assert.equal(await summary(agent, 'report-balance'), rupees(0));
  assert.equal(await agent.getByTestId('report-unbalanced').count(), 0);
  await agent.close();

  // The master's: the agent's row with its 40% below, the master's 30%, the operator's 30%.
  master = await consoleAs(MASTER.name, MASTER.password);
  await openSection(master, 'Reports');
  await master.getByTestId('report-partnership').filter({ hasText: `${MASTER.name}'s partnership: ${MASTER.partnership}%` }).waitFor();
  const agentsLine = pnlRow(master, AGENT.name);
  await agentsLine.waitFor();
  const upline = HOUSE - share(HOUSE, agentPercent) - share(HOUSE, masterPercent);
  assert.deepEqual(await cells(agentsLine), [AGENT.name, `${agentPercent}%`, rupees(HOUSE), rupees(share(HOUSE, agentPercent)), rupees(share(HOUSE, masterPercent)), rupees(upline)]);
  await master.getByTestId('report-tab-collection').click();
  const agentOwes = HOUSE - share(HOUSE, agentPercent);
  assert.deepEqual(await cells(collectionRow(master, AGENT.name)), [AGENT.name, rupees(agentOwes), '', '', rupees(agentOwes), 'Settle']);
  assert.equal(await summary(master, 'report-own-share'), rupees(share(HOUSE, masterPercent)));
  assert.equal(await summary(master, 'report-pay-upline'), rupees(upline));
  assert.equal(await summary(master, 'report-balance'), rupees(0));
  // Down to the agent's clients, and from asha's name to her account's P&L.
  await master.getByTestId('report-tab-pnl').click();
  await agentsLine.getByTestId('report-drill').click();
  await master.getByTestId('report-trail').getByText(AGENT.name).waitFor();
  await expectAgentsRows(master);
  await pnlRow(master, BACKER.name).getByRole('link', { name: BACKER.name }).click();
  await master.getByTestId('account-page').waitFor();
  assert.match(new URL(master.url()).hash, /^#\/console\/account\/\d+$/);
  await master.getByTestId('account-tab-pnl').click();
  await master.getByTestId('account-pnl-total').filter({ hasText: rupees(-BACKER_HOUSE) }).waitFor();
  assert.deepEqual((await cells(master.getByTestId('account-pnl-row'))).slice(1), [MATCH_NAME, 'Bookmaker', rupees(-BACKER_HOUSE)]);
  await master.close();
  step('reports checked');

  // 6. The operator's audit log: every step, filtered by action and by area.
  admin = await consoleAs('admin', 'Admin@1234');
  await openSection(admin, 'Audit log');
  /** The audit rows' Who and Action for a filter. @param {string} action */
  const audited = async (action) => {
    await admin.getByTestId('audit-action').fill(action);
    await admin.getByTestId('audit-apply').click();
    const read = () => admin.getByTestId('audit-row').evaluateAll((trs) => trs.map((tr) => [tr.children[1]?.textContent ?? '', tr.children[2]?.textContent ?? '']));
    // The table shows the last filter's rows until the new answer comes.
    const rows = await pollUntil(read, (rows) => rows.length > 0 && rows.every(([, what]) => what.startsWith(action)), { timeoutMs: 5_000 });
    // The demo data's own accounts and chips were made by the server ('Console / system').
    return rows.filter(([who]) => who !== 'Console / system').map(([who, what]) => `${who} ${what}`);
  };
  const tally = (/** @type {string[]} */ lines) => lines.reduce((/** @type {Record<string, number>} */ t, line) => ({ ...t, [line]: (t[line] ?? 0) + 1 }), {});
  assert.deepEqual(tally(await audited('user.create')), { 'admin user.create': 1, [`${MASTER.name} user.create`]: 1, [`${AGENT.name} user.create`]: 2 });
  assert.deepEqual(tally(await audited('chips.transfer')), { 'admin chips.transfer': 1, [`${MASTER.name} chips.transfer`]: 1, [`${AGENT.name} chips.transfer`]: 2 });
  const market = tally(await audited('market'));
  // Created 2; opened 2, suspended and reopened, ball running and back; Kings, Riders, the line, Kings +1; 2 results.
  assert.deepEqual(market, { 'admin market.create': 2, 'admin market.status': 6, 'admin market.rates': 4, 'admin market.result': 2 });
  await admin.close();
  step('audit log checked');
  assert.deepEqual(pageErrors, []);
});
