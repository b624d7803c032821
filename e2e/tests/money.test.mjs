// @ts-check
// Money in and out, against the real server with demo data: the operator sets where clients pay
// (a UPI id, through admin/payment/details), the bettor's deposit page shows that UPI id and a QR
// code of it at laptop and phone widths, and the bank account of a withdrawal is offered again
// on the next visit (payment/bankAccount). Screenshots at 1280 and 390 px in e2e/screenshots/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, newPage, startServer } from '../harness.mjs';
import { VIEWPORTS, assertFitsViewport } from '../viewport.mjs';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** @param {string} userName @param {string} password */
async function tokenOf(userName, password) {
  const answer = await server.api('user/login', { user_name: userName, password });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return /** @type {string} */ (answer.body.data.token);
}

/** Logs the demo bettor in with empty storage and closes the welcome popup. @param {import('playwright-core').Page} page */
async function logInDemo(page) {
  await page.goto(`${server.baseUrl}/`);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.goto(`${server.baseUrl}/#/login`);
  await page.reload();
  await page.getByTestId('login-user-name').fill('demo');
  await page.getByTestId('login-password').fill('Demo@1234');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('welcome-popup').waitFor();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
}

test("the operator sets a UPI id and the bettor's deposit page shows it with a QR code; a withdrawal's bank account is kept", async () => {
  const admin = await tokenOf('admin', 'Admin@1234');
  const set = await server.api('admin/payment/details', { upi_id: 'backlay.ops@okaxis', upi_name: 'Backlay Ops' }, admin);
  assert.equal(set.status, 200, JSON.stringify(set.body));

  const page = await newPage(browser);
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await logInDemo(page);

  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    await page.setViewportSize(viewport);
    await page.goto(`${server.baseUrl}/#/setting/d-w`);
    await page.reload();
    const upi = page.getByTestId('deposit-upi-id');
    await upi.waitFor();
    assert.equal((await upi.textContent())?.trim(), 'backlay.ops@okaxis');
    const qr = page.getByTestId('deposit-qr').locator('svg');
    assert.ok(await qr.isVisible(), 'the QR code is shown');
    const box = await qr.boundingBox();
    assert.ok(box && box.width >= 100 && box.x + box.width <= viewport.width, `the QR code fits the ${viewport.width}px screen: ${JSON.stringify(box)}`);
    // The QR code encodes the payee's upi:// link: its modules are drawn as one path.
    assert.ok(((await qr.locator('path').last().getAttribute('d')) ?? '').length > 200, 'the QR code has modules');
    await assertFitsViewport(page, `deposit-upi-${viewport.width}`);
  }

  // A withdrawal: the form is empty the first time, and remembers the account afterwards.
  await page.setViewportSize(VIEWPORTS.phone);
  await page.getByTestId('withdraw-tab').click();
  assert.equal(await page.getByTestId('wd-account-number').inputValue(), '');
  await page.getByTestId('wd-amount').fill('150');
  await page.getByTestId('wd-account-holder').fill('Ravi Kumar');
  await page.getByTestId('wd-bank-name').fill('HDFC Bank');
  await page.getByTestId('wd-account-number').fill('50100012345678');
  await page.getByTestId('wd-ifsc').fill('hdfc0001234');
  await page.getByTestId('wd-submit').click();
  await page.getByText(/Withdraw request of .*150\.00 sent/).waitFor();
  await assertFitsViewport(page, 'withdraw-sent-390');

  await page.reload();
  await page.getByTestId('withdraw-tab').click();
  const number = page.getByTestId('wd-account-number');
  await page.waitForFunction(() => /** @type {HTMLInputElement | null} */ (document.querySelector('[data-testid="wd-account-number"]'))?.value === '50100012345678');
  assert.equal(await number.inputValue(), '50100012345678');
  assert.equal(await page.getByTestId('wd-account-holder').inputValue(), 'Ravi Kumar');
  assert.equal(await page.getByTestId('wd-ifsc').inputValue(), 'HDFC0001234', 'kept as the server saved it');
  assert.equal(await page.getByTestId('wd-amount').inputValue(), '', 'the amount is asked afresh');
  await page.setViewportSize(VIEWPORTS.desktop);
  await assertFitsViewport(page, 'withdraw-prefilled-1280');

  assert.deepEqual(errors, []);
  await page.close();
});
