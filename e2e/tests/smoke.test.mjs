// @ts-check
// The first journey: a visitor opens the site, logs in as the demo user and sees a balance.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, newPage, startServer } from '../harness.mjs';

/** @type {import('../harness.mjs').Server | undefined} */
let server;
/** @type {import('../harness.mjs').Browser | undefined} */
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

// Runs even when `before` failed half way, so nothing is left running.
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('demo user logs in and sees the balance', async () => {
  assert.ok(server && browser);
  const page = await newPage(browser);
  /** @type {string[]} */
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await page.goto(`${server.baseUrl}/`);
  await page.getByTestId('site-title').filter({ hasText: 'Backlay' }).waitFor();

  await page.getByTestId('login-user-name').fill('demo');
  await page.getByTestId('login-password').fill('Demo@1234');
  await page.getByTestId('login-submit').click();

  // Wait for the outcome, good or bad, so a refusal fails with the page's own words.
  const errorText = page.getByTestId('error-message');
  const balance = page.getByTestId('balance').filter({ hasText: /\d+\.\d{2}/ });
  await balance.or(errorText).first().waitFor();
  assert.deepEqual(await errorText.allInnerTexts(), [], 'the page shows an error');
  assert.equal(await page.getByTestId('logged-in-as').innerText(), 'Logged in as demo');
  assert.match(await balance.innerText(), /^-?\d+\.\d{2}$/);
  assert.deepEqual(pageErrors, []);
});
