// @ts-check
// Issue 28's downline views in Chromium, against the demo data (admin → agent → demo, demo2,
// maker): a search from the top finds a client two levels down with its path; drilling into an
// agent changes the address and Back walks up; the agent's row shows its branch's totals (its
// own chips plus its clients'); payment details the operator sets for the agent in the console
// are what the agent's client reads on the app's deposit page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { freshPage, launchBrowser, logIn, logInAs, openDownline, startServer } from '../harness.mjs';
import { rupees } from '../rupees.mjs';

const UPI_ID = 'opday.agent@okaxis';

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

/** Money text as shown ('₹1,500.00', '-₹20.00') in paise. @param {string | null} text */
function paise(text) {
  const match = /(-?)₹([\d,]+)\.(\d{2})/.exec(text ?? '');
  assert.ok(match, `no money in ${text}`);
  return (match[1] ? -1 : 1) * (Number(match[2].replaceAll(',', '')) * 100 + Number(match[3]));
}

/** @param {import('playwright-core').Page} page */
const hashOf = (page) => new URL(page.url()).hash;

test("the operator searches, drills down and back, reads a branch's totals and sets an agent's payment details", async () => {
  const { page, errors } = await freshPage(browser, server.baseUrl);
  await logIn(page, 'admin', 'Admin@1234');
  await openDownline(page);

  // A search from the top reaches two levels down and names the way there.
  await page.getByTestId('downline-search').fill('demo2');
  await page.getByTestId('downline-search-submit').click();
  const hit = page.locator('[data-testid="downline-row"][data-user-name="demo2"]');
  await hit.getByTestId('downline-path').filter({ hasText: 'admin › agent › demo2' }).waitFor();
  assert.match(hashOf(page), /q=demo2/);
  await page.getByTestId('downline-search').fill('');
  await page.getByTestId('downline-search-submit').click();

  // The agent's row: its branch's balance is its own plus its clients'.
  const agentRow = page.locator('[data-testid="downline-row"][data-user-name="agent"]');
  const own = paise(await agentRow.getByTestId('downline-own-balance').textContent());
  const branch = paise(await agentRow.getByTestId('downline-balance').textContent());
  const share = (await agentRow.getByTestId('downline-share').textContent()) ?? '';
  assert.match(share, /%$/);

  // Drilling in changes the address; the clients' balances add up to the branch's.
  await agentRow.getByTestId('downline-open').click();
  await page.getByTestId('downline-trail').filter({ hasText: 'agent' }).waitFor();
  await page.locator('[data-testid="downline-row"][data-user-name="demo"]').waitFor();
  assert.match(hashOf(page), /^#\/console\/downline\?under=\d+$/);
  const drilledUrl = page.url();
  const clients = await page.getByTestId('downline-balance').allTextContents();
  assert.equal(branch, own + clients.map(paise).reduce((sum, p) => sum + p, 0), `${rupees(branch / 100)} is not the agent's ${rupees(own / 100)} and ${clients.join(", ")}`);
  // Back walks up to the top; the drilled address opens the same place when shared.
  await page.goBack();
  await agentRow.waitFor();
  assert.equal(hashOf(page), '#/console/downline');
  await page.goto(drilledUrl);
  await page.getByTestId('downline-trail').filter({ hasText: 'agent' }).waitFor();
  await page.locator('[data-testid="downline-row"][data-user-name="demo2"]').waitFor();
  await page.goBack();
  await agentRow.waitFor();

  // The operator sets the agent's payment details from its row.
  await agentRow.getByTestId('row-payment-details').click();
  const form = page.getByTestId('payment-details-form');
  await page.getByTestId('payment-details-page').getByText('Payment details of agent').waitFor();
  await form.getByTestId('details-upi-id').fill('not-a-upi');
  await form.getByTestId('details-save').click();
  await form.getByText('Enter a UPI id such as name@okaxis.').waitFor();
  await form.getByTestId('details-upi-id').fill(UPI_ID);
  await form.getByTestId('details-upi-name').fill('Opday Agent');
  await form.getByTestId('details-save').click();
  await page.getByTestId('payment-details-updated').waitFor();
  assert.deepEqual(errors, []);
  await page.close();

  // The agent's client reads them on the app's deposit page.
  const client = await freshPage(browser, server.baseUrl);
  await logInAs(client.page, server.baseUrl, 'demo', 'Demo@1234');
  await client.page.goto(`${server.baseUrl}/#/setting/d-w`);
  await client.page.getByTestId('deposit-upi-id').filter({ hasText: UPI_ID }).waitFor();
  assert.deepEqual(client.errors, []);
  await client.page.close();
});
