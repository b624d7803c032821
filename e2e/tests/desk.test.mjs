// @ts-check
// The trading desk in Chromium, against the real server: the operator creates a match with a
// bookmaker and a fancy market from the console's forms and opens them; the desk sets rates and
// lines from the keyboard and a client's page (another browser) shows each change within a
// second; ball running shows on the client; the operator declares the fancy's result after a
// confirmation that shows what it moves, and the client's balance changes by that much.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, logIn, logInAs, newPage, shoot, startServer } from '../harness.mjs';
import { exactly, rupees } from '../rupees.mjs';

const MATCH_NAME = 'Desk Kings v Desk Riders';
/** The brief: a key's change reaches a client within a second. */
const WITHIN_A_SECOND = { timeout: 1_000 };
/** Waits that span the client's 5 s balance poll. */
const POLL_WAIT = { timeout: 15_000 };

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let deskBrowser;
/** @type {import('../harness.mjs').Browser} */
let clientBrowser;
/** @type {string[]} */
const pageErrors = [];

before(async () => {
  server = await startServer({ extraArgs: ['--no-demo-feed', '--no-casino'] });
  deskBrowser = await launchBrowser();
  clientBrowser = await launchBrowser();
});

after(async () => {
  await deskBrowser?.close();
  await clientBrowser?.close();
  await server?.stop();
});

/** @param {import('playwright-core').Page} page @param {string} name */
function collectErrors(page, name) {
  page.on('pageerror', (error) => pageErrors.push(`${name}: ${error.message}`));
}

test('the desk runs a match from the keyboard, the client sees it live, the result moves the balance', async () => {
  // The operator logs in and creates the match from the Markets screen.
  const desk = await newPage(deskBrowser);
  collectErrors(desk, 'desk');
  await desk.goto(`${server.baseUrl}/#/login`);
  await logIn(desk, 'admin', 'Admin@1234');
  await desk.getByTestId('dashboard-page').waitFor();
  await desk.goto(`${server.baseUrl}/#/console/markets`);
  const matchForm = desk.getByTestId('match-form');
  await matchForm.getByTestId('match-series').locator('option').nth(1).waitFor({ state: 'attached' });
  await matchForm.getByTestId('match-series').selectOption({ index: 1 });
  await matchForm.getByTestId('match-name').fill(MATCH_NAME);
  await matchForm.getByTestId('match-start').fill('2030-06-01T14:00');
  await matchForm.getByTestId('match-venue').fill('Wankhede');
  await matchForm.getByRole('button', { name: 'Create match' }).click();
  const markets = desk.getByTestId('catalogue-match-markets');
  await markets.getByRole('heading', { name: MATCH_NAME }).waitFor();
  const matchId = Number(new URL(desk.url()).hash.split('/').at(-1));
  assert.ok(matchId > 0, desk.url());

  // A bookmaker with two runners and a fancy, each created suspended, then opened.
  const marketForm = desk.getByTestId('market-form');
  await marketForm.getByTestId('market-type').selectOption('bookmaker');
  await marketForm.getByTestId('market-name').fill('Bookmaker');
  await marketForm.getByTestId('market-runners').fill('Desk Kings\nDesk Riders');
  await marketForm.getByRole('button', { name: 'Create market' }).click();
  await markets.getByTestId('catalogue-markets').getByText('Bookmaker', { exact: true }).waitFor();
  // A refusal shows next to its field: a min stake under the floor.
  await marketForm.getByTestId('market-type').selectOption('fancy');
  await marketForm.getByTestId('market-name').fill('6 over runs Kings');
  await marketForm.getByTestId('market-min').fill('0.50');
  await marketForm.getByRole('button', { name: 'Create market' }).click();
  await marketForm.locator('.field-error').filter({ hasText: 'min_stake must be at least 1.00' }).waitFor();
  await marketForm.getByTestId('market-min').fill('100');
  await marketForm.getByRole('button', { name: 'Create market' }).click();
  await markets.getByTestId('catalogue-markets').getByText('6 over runs Kings', { exact: true }).waitFor();
  const desked = await server.api('admin/desk/markets', { match_id: matchId }, await desk.evaluate(() => localStorage.getItem('usertoken') ?? ''));
  const byType = (/** @type {string} */ type) => desked.body.data.markets.find((/** @type {any} */ m) => m.type === type);
  const bookmakerId = byType('bookmaker').market_id;
  const fancyId = byType('fancy').market_id;
  for (const id of [bookmakerId, fancyId]) {
    const row = markets.getByTestId(`catalogue-market-${id}`);
    await row.getByTestId('market-open').click();
    await row.getByTestId('catalogue-status').filter({ hasText: 'open' }).waitFor();
  }
  await shoot(desk, 'desk-catalogue');

  // The client opens the match in another browser.
  const client = await newPage(clientBrowser);
  collectErrors(client, 'client');
  const clientToken = await logInAs(client, server.baseUrl);
  await client.goto(`${server.baseUrl}/#/match/matchdetail/${matchId}`);
  await client.getByTestId('match-title').filter({ hasText: MATCH_NAME }).waitFor();
  await client.locator('[data-testid="connection"][data-state="live"]').waitFor({ state: 'attached' });
  const fancyRow = client.locator(`[data-testid="fancy-row"][data-market-id="${fancyId}"]`);
  const kings = client.locator(`[data-testid="market"][data-market-id="${bookmakerId}"] [data-testid="runner"]`).first();

  // The desk: the bookmaker row first, then the fancy. Keys post at once.
  await markets.getByTestId('catalogue-open-desk').click();
  await desk.getByTestId('desk-keymap').waitFor();
  await desk.locator('[data-testid="desk-connection"]').filter({ hasText: 'Live' }).waitFor();
  const deskRow = (/** @type {number} */ id) => desk.getByTestId(`desk-row-${id}`);
  await deskRow(bookmakerId).waitFor();
  assert.equal(await deskRow(bookmakerId).getAttribute('aria-selected'), 'true');

  // Typed rate then Enter: Kings back 40, lay 45 on the client within a second.
  await desk.keyboard.type('40');
  await desk.getByTestId('desk-entry').filter({ hasText: '40' }).waitFor();
  let sent = Date.now();
  await desk.keyboard.press('Enter');
  await kings.getByTestId('bm-back').filter({ hasText: '40' }).waitFor(WITHIN_A_SECOND);
  await kings.getByTestId('bm-lay').filter({ hasText: '45' }).waitFor(WITHIN_A_SECOND);
  const bookmakerMs = Date.now() - sent;
  // `]` moves them up together.
  await desk.keyboard.press(']');
  await kings.getByTestId('bm-back').filter({ hasText: '41' }).waitFor(WITHIN_A_SECOND);

  // Down to the fancy: a line of 48 typed, then `+` moves NO and YES to 49.
  await desk.keyboard.press('j');
  assert.equal(await deskRow(fancyId).getAttribute('aria-selected'), 'true');
  await desk.keyboard.type('48');
  await desk.keyboard.press('Enter');
  await fancyRow.getByTestId('fancy-no').filter({ hasText: '48' }).waitFor(WITHIN_A_SECOND);
  sent = Date.now();
  await desk.keyboard.press('+');
  await deskRow(fancyId).getByTestId('desk-line-no').filter({ hasText: '49' }).waitFor();
  await fancyRow.getByTestId('fancy-no').filter({ hasText: '49' }).waitFor(WITHIN_A_SECOND);
  await fancyRow.getByTestId('fancy-yes').filter({ hasText: '49' }).waitFor(WITHIN_A_SECOND);
  const fancyMs = Date.now() - sent;
  // `y` picks YES alone: `+` moves it to 50 while NO stays at 49; `y` again, both together.
  await desk.keyboard.press('y');
  await deskRow(fancyId).getByTestId('desk-side').filter({ hasText: 'YES alone' }).waitFor();
  await desk.keyboard.press('+');
  await fancyRow.getByTestId('fancy-yes').filter({ hasText: '50' }).waitFor(WITHIN_A_SECOND);
  await fancyRow.getByTestId('fancy-no').filter({ hasText: '49' }).waitFor();
  await desk.keyboard.press('y');
  await deskRow(fancyId).getByTestId('desk-side').waitFor({ state: 'detached' });

  // Ball running (space), shown on the client; `b` opens again.
  await desk.keyboard.press(' ');
  await fancyRow.getByTestId('status-overlay').filter({ hasText: 'Ball Running' }).waitFor(WITHIN_A_SECOND);
  await deskRow(fancyId).getByTestId('desk-status').filter({ hasText: 'ball running' }).waitFor();
  await shoot(desk, 'desk-ball-running');
  await desk.keyboard.press('b');
  await fancyRow.getByTestId('status-overlay').waitFor({ state: 'detached', ...WITHIN_A_SECOND });
  console.log(`desk → client: bookmaker rates ${bookmakerMs} ms, fancy line ${fancyMs} ms`);

  // The client bets NO 49 for 100; the fancy ends at 60 runs, so the bet loses 100.
  const balance = await fetch(`${server.baseUrl}/api/user/getUserBalance`, { headers: { Authorization: `Bearer ${clientToken}` } });
  const startMinor = Math.round((await balance.json()).data.total_balance * 100);
  const bet = await server.api('bet/placeBet', { market_id: fancyId, side: 'no', price: '100', line: 49, stake: '100', client_ref: 'e2e-desk-no' }, clientToken);
  assert.equal(bet.status, 200, JSON.stringify(bet.body));

  // Declared from the Markets screen, after the confirmation with the preview's figures.
  await desk.getByRole('link', { name: 'Results…' }).click();
  const fancyEntry = desk.getByTestId(`catalogue-market-${fancyId}`);
  await fancyEntry.getByTestId('market-result').click();
  const dialog = desk.getByTestId('result-dialog');
  await dialog.getByTestId('result-runs').fill('60');
  const preview = dialog.getByTestId('result-preview');
  await preview.filter({ hasText: `clients win ${rupees(0)}, lose ${rupees(100)}, house +${rupees(100)}, 1 bets` }).waitFor();
  await shoot(desk, 'desk-result-confirmation');
  await dialog.getByTestId('result-confirm').click();
  await dialog.waitFor({ state: 'detached' });
  await fancyEntry.getByTestId('catalogue-status').filter({ hasText: 'closed' }).waitFor();

  // The client's header shows the new balance.
  await client.getByTestId('balance').filter({ hasText: exactly(startMinor - 100_00, 'minor') }).waitFor(POLL_WAIT);
  assert.deepEqual(pageErrors, []);
});
