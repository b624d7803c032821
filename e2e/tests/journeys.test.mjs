// @ts-check
// The journeys a person takes through the client, against the real server with demo data.
// One server and one browser serve the whole file; each journey starts logged out with
// empty storage and saves screenshots at 1280 and 390 px in e2e/screenshots/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { launchBrowser, newPage, shoot, startServer } from '../harness.mjs';
import { exactly } from '../rupees.mjs';
import { base32Decode, firstStep, nextCode, totp } from '../totp.mjs';
import { assertFitsEveryViewport } from '../viewport.mjs';

/** How long after the layout mounts the welcome popup opens: the app's own constant. */
const WELCOME_POPUP_DELAY_MS = Number(
  /WELCOME_POPUP_DELAY_MS = (\d+)/.exec(readFileSync(new URL('../../web/src/features/auth/WelcomePopup.tsx', import.meta.url), 'utf8'))?.[1],
);
assert.ok(WELCOME_POPUP_DELAY_MS > 0, 'WELCOME_POPUP_DELAY_MS is found in WelcomePopup.tsx');

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

/** A tab at the login page with empty storage; page errors are collected to assert on. */
async function freshPage() {
  const page = await newPage(browser);
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.baseUrl}/`);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.goto(`${server.baseUrl}/#/login`);
  await page.reload();
  await page.getByTestId('login-submit').waitFor();
  return { page, errors };
}

/** @param {import('playwright-core').Page} page */
async function logIn(page, userName = 'demo', password = 'Demo@1234') {
  await page.getByTestId('login-user-name').fill(userName);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Logs in and closes the welcome popup. @param {import('playwright-core').Page} page */
async function logInReady(page, userName = 'demo', password = 'Demo@1234') {
  await logIn(page, userName, password);
  await page.getByTestId('welcome-popup').waitFor();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  await page.getByTestId('balance').filter({ hasText: /\d+\.\d{2}/ }).waitFor();
}

/** @param {import('playwright-core').Page} page */
const hashOf = (page) => new URL(page.url()).hash;

test('a visitor signs up and lands on the home page', async () => {
  const { page, errors } = await freshPage();
  await shoot(page, 'login');
  await page.getByTestId('to-sign-up').click();
  await page.getByTestId('signup-submit').waitFor();
  assert.equal(await page.getByTestId('signup-country').inputValue(), 'IN');

  // Field errors show before anything is sent.
  await page.getByTestId('signup-submit').click();
  await page.getByText('Mobile number must be 6 to 15 digits.').waitFor();
  await shoot(page, 'signup-errors');

  await page.getByTestId('signup-user-name').fill('newbettor');
  await page.getByTestId('signup-mobile').fill('9876543210');
  await page.getByTestId('signup-password').fill('Newbet@123');
  await page.getByTestId('signup-confirm-password').fill('Newbet@123');
  await page.getByTestId('signup-submit').click();

  await page.getByTestId('home-page').waitFor();
  await page.getByTestId('welcome-popup').waitFor();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  assert.equal(await page.getByTestId('user-name').innerText(), 'newbettor');
  await page.getByTestId('balance').filter({ hasText: '₹0.00' }).waitFor();
  await shoot(page, 'signup-home');

  // The same name again is refused with the server's message.
  await page.getByTestId('user-menu-toggle').click();
  await page.getByTestId('logout').click();
  await page.getByTestId('login-submit').waitFor();
  await page.goto(`${server.baseUrl}/#/sign-up`);
  await page.getByTestId('signup-user-name').fill('newbettor');
  await page.getByTestId('signup-mobile').fill('9876543210');
  await page.getByTestId('signup-password').fill('Newbet@123');
  await page.getByTestId('signup-confirm-password').fill('Newbet@123');
  await page.getByTestId('signup-submit').click();
  await page.getByTestId('error-message').or(page.locator('.field-error')).first().waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('demo logs in: welcome popup once, balance and exposure, My Market, logout', async () => {
  const { page, errors } = await freshPage();
  await logIn(page, 'demo', 'nope-nope');
  await page.getByTestId('error-message').waitFor();
  assert.match(await page.getByTestId('error-message').innerText(), /Incorrect user name or password/);

  await logIn(page);
  const popup = page.getByTestId('welcome-popup');
  await popup.waitFor();
  assert.match(await popup.innerText(), /Beware Of Phishing Websites Before Login\. Enable Security Auth To Secure Your ID\./);
  assert.equal(await popup.getByRole('img').count(), 1);
  await shoot(page, 'welcome-popup');
  await popup.getByTestId('modal-close').click();
  assert.equal(await page.evaluate(() => localStorage.getItem('openWelcomePopup')), null);

  await page.getByTestId('balance').filter({ hasText: '₹1,00,000.00' }).waitFor();
  assert.equal(await page.getByTestId('exposure').innerText(), '₹0.00');
  await page.reload();
  await page.getByTestId('balance').filter({ hasText: '₹1,00,000.00' }).waitFor();
  // Had the popup been due again, its timer would have been set when the layout mounted, before
  // the balance showed. A timer of the same delay set now fires after it (timers of equal delay
  // run in the order they were set), and two frames later the popup would be on screen.
  await page.evaluate(async (delayMs) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }, WELCOME_POPUP_DELAY_MS);
  assert.equal(await page.getByTestId('welcome-popup').count(), 0, 'the popup shows only once');
  assert.ok(await page.getByTestId('site-message').isVisible());
  await assertFitsEveryViewport(page, 'home');

  await page.getByTestId('exposure-button').click();
  const market = page.getByTestId('my-market-modal');
  await market.getByText('No data available in table').waitFor();
  for (const column of ['Event Type', 'Event Name', 'Match Name', 'Trade']) {
    await market.getByRole('columnheader', { name: column }).waitFor();
  }
  await shoot(page, 'my-market');
  await market.getByTestId('modal-close').click();

  await page.getByTestId('user-menu-toggle').click();
  await page.getByTestId('logout').click();
  await page.getByTestId('login-submit').waitFor();
  assert.equal(hashOf(page), '#/login');
  const left = await page.evaluate(() => ['userinfo', 'usertoken', 'logedIn', 'parent_id'].map((k) => localStorage.getItem(k)));
  assert.deepEqual(left, [null, null, null, null]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a client created by an agent must change the password first', async () => {
  const agent = await server.api('user/login', { user_name: 'agent', password: 'Agent@1234' });
  const created = await server.api('admin/user/create', { user_name: 'ravi', password: 'Start@1234', role: 'client' }, agent.body.data.token);
  assert.equal(created.status, 200, JSON.stringify(created.body));

  const { page, errors } = await freshPage();
  await logIn(page, 'ravi', 'Start@1234');
  await page.getByTestId('change-password-page').waitFor();
  assert.equal(hashOf(page), '#/setting/change-password');
  await page.getByTestId('forced-change-notice').waitFor();

  // Any other page leads back here.
  await page.goto(`${server.baseUrl}/#/report/account-statement`);
  await page.getByTestId('change-password-page').waitFor();
  assert.equal(hashOf(page), '#/setting/change-password');

  // Own validation first, then the server's answer.
  await page.getByTestId('cp-master-password').fill('Start@1234');
  await page.getByTestId('cp-new-password').fill('short1');
  await page.getByTestId('cp-confirm-password').fill('short2');
  await page.getByTestId('cp-submit').click();
  await page.getByText('Password must be at least 8 characters.').waitFor();
  await page.getByText('New password and confirm password must be matching.').waitFor();
  await shoot(page, 'forced-change-errors');

  await page.getByTestId('cp-master-password').fill('Wrong@1234');
  await page.getByTestId('cp-new-password').fill('Ravi@2025');
  await page.getByTestId('cp-confirm-password').fill('Ravi@2025');
  await page.getByTestId('cp-submit').click();
  await page.getByText('Current password is incorrect.').waitFor();

  await page.getByTestId('cp-master-password').fill('Start@1234');
  await page.getByTestId('cp-submit').click();
  await page.getByTestId('home-page').waitFor();
  await page.getByTestId('welcome-popup').waitFor();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  // What was refused before the change (428) is fetched again: the sidebar lists the sports.
  await page.getByTestId('sidebar-sport').filter({ hasText: /^Cricket$/ }).waitFor();
  await page.getByTestId('top-nav-sport').filter({ hasText: /^Cricket$/ }).waitFor();
  await shoot(page, 'forced-change-done');
  assert.deepEqual(errors, []);
  await page.close();
});

test('search leads to a match', async () => {
  const { page, errors } = await freshPage();
  await logInReady(page);
  await page.getByTestId('search-toggle').click();
  await page.getByTestId('search-input').fill('India');
  const group = page.getByTestId('search-group').filter({ hasText: 'Cricket' });
  await group.waitFor();
  const result = group.getByTestId('search-result').filter({ hasText: 'India v Australia' });
  assert.match(await result.innerText(), /\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
  await shoot(page, 'search');
  await result.click();
  await page.getByTestId('match-title').filter({ hasText: 'India v Australia' }).waitFor();
  assert.match(hashOf(page), /^#\/game-details\/4\/\d+$/);
  assert.equal(await page.getByTestId('search-input').count(), 0);
  await shoot(page, 'game-details');

  // The sidebar's accordion reaches a match too.
  await page.getByTestId('sidebar-sport').filter({ hasText: /^Football$/ }).click();
  await page.getByTestId('sidebar-series').filter({ hasText: 'English Premier League' }).click();
  await page.getByTestId('sidebar-match').filter({ hasText: 'Arsenal v Liverpool' }).click();
  await page.getByTestId('match-title').filter({ hasText: 'Arsenal v Liverpool' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('every user-menu page and modal opens', async () => {
  const { page, errors } = await freshPage();
  await logInReady(page);
  const pages = [
    ['menu-account-statement', 'account-statement-page', '#/report/account-statement'],
    ['menu-payment-statement', 'payment-statement-page', '#/report/payment-withdraw'],
    ['menu-current-bet', 'current-bet-page', '#/report/current-bet'],
    ['menu-profit-loss', 'profit-loss-page', '#/report/profit-loss'],
    ['menu-bet-history', 'bet-history-page', '#/report/bet-history'],
    ['menu-casino-result', 'casino-result-page', '#/report/casino-result'],
    ['menu-live-casino-bets', 'live-casino-bets-page', '#/report/live-casino-bets'],
    ['menu-security-auth', 'security-auth-page', '#/security-auth/'],
  ];
  for (const [item, pageId, hash] of pages) {
    await page.getByTestId('user-menu-toggle').click();
    await page.getByTestId(item).click();
    const body = page.getByTestId(pageId);
    await body.waitFor();
    await page.getByTestId('top-nav-sport').first().waitFor();
    assert.equal(hashOf(page), hash);
    // Loaded, empty or "not available yet": never a spinner left behind.
    await page.getByTestId('loading').waitFor({ state: 'detached' });
    await shoot(page, pageId);
  }
  for (const [item, modalId] of [
    ['menu-button-values', 'button-values-modal'],
    ['menu-change-password', 'change-password-modal'],
    ['menu-rules', 'rules-modal'],
  ]) {
    await page.getByTestId('user-menu-toggle').click();
    await page.getByTestId(item).click();
    const modal = page.getByTestId(modalId);
    await modal.waitFor();
    await shoot(page, modalId);
    await modal.getByTestId('modal-close').click();
  }
  await page.getByTestId('rules-link').click();
  await page.getByTestId('rules-modal').waitFor();
  await page.getByTestId('rules-modal').getByTestId('modal-close').click();

  await page.getByTestId('deposit-withdraw-link').click();
  await page.getByTestId('deposit-withdraw-page').waitFor();
  await page.getByTestId('dw-submit').click();
  await page.getByText('Amount is required.').waitFor();
  await shoot(page, 'deposit-withdraw');

  // The other routes of the spec open without a dead end.
  for (const [route, id] of [
    ['/all-sports/4', 'all-sports-page'],
    ['/world-casino', 'world-casino-page'],
    ['/casino/list', 'casino-list-page'],
    ['/casino/list/teenpatti', 'casino-list-page'],
    ['/match/matchdetail/1', 'game-details-page'],
    ['/casino/mac88', 'world-casino-page'],
    ['/casino/match/teen20', 'casino-table'],
    ['/CM/MD/teen20', 'casino-table'],
    ['/horse-racing', 'horse-racing-page'],
    ['/user', 'user-page'],
    ['/setting/button-values', 'button-values-page'],
    ['/no-such-page', 'not-found'],
  ]) {
    await page.goto(`${server.baseUrl}/#${route}`);
    await page.getByTestId(id).waitFor();
    await page.getByTestId('loading').waitFor({ state: 'detached' });
  }
  await shoot(page, 'horse-racing-not-found');
  // The day (at UTC+5:30) and country of the demo's next horse race, so the page has races
  // whatever the time of day the test runs.
  const demoToken = (await server.api('user/login', { user_name: 'demo', password: 'Demo@1234' })).body.data.token;
  /** @type {{ series_name: string, open_date: string }[]} */
  const races = (await server.api('match/getMatches', { sport_id: 7, is_active: 1 }, demoToken)).body.data;
  const next = races.find((race) => race.series_name === 'GB Racing') ?? races[0];
  const raceDay = new Date(Date.parse(next.open_date) + 330 * 60 * 1000).toISOString().slice(0, 10);
  const raceCountry = next.series_name.slice(0, 2);
  await page.goto(`${server.baseUrl}/#/horse-racing?sport_id=7&country=${raceCountry}&date=${raceDay}`);
  const raceList = page.getByTestId('race-list').or(page.getByTestId('venue-list')).first();
  await raceList.getByRole('link').first().waitFor();
  await shoot(page, 'horse-racing');
  await raceList.getByRole('link').first().click();
  await page.getByTestId('race-page').waitFor();
  assert.match(hashOf(page), /^#\/horse-racing\/\d+\/\d{4}-\d{2}-\d{2}$/);
  // The race card: its win and place markets, or word that they are not open yet.
  const card = page.getByTestId('race-page');
  await card.getByTestId('race-no-markets').or(card.getByTestId('market').first()).waitFor();

  // The game page frames only allow-listed origins: an address elsewhere shows an error.
  await page.goto(`${server.baseUrl}/#/casino/mac88/game?url=${encodeURIComponent('https://evil.example.test/game')}`);
  await page.getByTestId('game-error').waitFor();
  assert.equal(await page.locator('iframe').count(), 0);
  assert.equal(await page.getByTestId('game-user-name').innerText(), 'demo');
  await shoot(page, 'casino-game-refused');
  assert.deepEqual(errors, []);
  await page.close();
});

test('button values are saved and shown after a reload', async () => {
  const { page, errors } = await freshPage();
  await logInReady(page);
  await page.getByTestId('user-menu-toggle').click();
  await page.getByTestId('menu-button-values').click();
  const modal = page.getByTestId('button-values-modal');
  await modal.getByTestId('button-value-row').first().waitFor();
  await modal.getByTestId('button-label').first().fill('2k');
  await modal.getByTestId('button-value').first().fill('2000');
  await modal.getByTestId('button-tab-casino').click();
  await modal.getByTestId('button-label').first().fill('75');
  await modal.getByTestId('button-value').first().fill('75');
  await modal.getByTestId('button-values-update').click();
  await modal.waitFor({ state: 'detached' });

  await page.reload();
  await page.getByTestId('user-menu-toggle').click();
  await page.getByTestId('menu-button-values').click();
  await modal.getByTestId('button-value-row').first().waitFor();
  assert.equal(await modal.getByTestId('button-label').first().inputValue(), '2k');
  assert.equal(await modal.getByTestId('button-value').first().inputValue(), '2000');
  await modal.getByTestId('button-tab-casino').click();
  assert.equal(await modal.getByTestId('button-label').first().inputValue(), '75');
  await shoot(page, 'button-values-saved');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the rules page shows every tab', async () => {
  const { page, errors } = await freshPage();
  await logInReady(page);
  await page.goto(`${server.baseUrl}/#/page/rules`);
  await page.getByTestId('rules-page').waitFor();
  assert.equal(await page.getByTestId('site-header').count(), 0, 'the rules page has its own layout');
  const tabs = page.getByRole('tab');
  const names = await tabs.allInnerTexts();
  for (const name of ['Horse Racing', 'Football', 'Bookmaker', 'Teenpatti', 'Fancy', 'Match', 'Binary', 'World Cup', 'IPL']) {
    assert.ok(names.includes(name), `tab ${name}`);
  }
  // The spec's 27 tabs, then the casino games' rules last.
  assert.equal(names.length, 28);
  assert.equal(names.at(-1), 'Casino');
  for (const name of names) {
    await tabs.filter({ hasText: new RegExp(`^${name}$`) }).click();
    await page.getByTestId('rules-panel').getByRole('heading', { name, exact: true }).waitFor();
  }
  await tabs.filter({ hasText: /^Teenpatti$/ }).click();
  await page.getByTestId('rules-panel').getByText('No records Found').waitFor();
  await tabs.filter({ hasText: /^Fancy$/ }).click();
  assert.equal(await page.getByTestId('rules-panel').locator('ol > li').count(), 16);
  await shoot(page, 'rules-fancy');
  await tabs.filter({ hasText: /^Horse Racing$/ }).click();
  await page.getByTestId('rules-panel').getByText('1.01').waitFor();
  await tabs.filter({ hasText: /^Casino$/ }).click();
  await page.getByTestId('rules-panel').getByText(/Dragon Tiger 1 Day/).first().waitFor();
  await shoot(page, 'rules-casino');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a session revoked on the server logs the user out at the next request', async () => {
  const { page, errors } = await freshPage();
  await logInReady(page);
  const token = await page.evaluate(() => localStorage.getItem('usertoken'));
  assert.ok(token);
  const revoked = await server.api('user/logout', { token }, token);
  assert.equal(revoked.status, 200);

  // The next request (opening a sport, or the 5 s balance poll if it comes first) answers 401:
  // the app logs out and shows the login page.
  await page.evaluate(() => {
    window.location.hash = '#/all-sports/1';
  });
  await page.getByTestId('login-submit').waitFor();
  assert.equal(hashOf(page), '#/login');
  assert.equal(await page.evaluate(() => localStorage.getItem('usertoken')), null);
  await shoot(page, 'revoked-session');
  assert.deepEqual(errors, []);
  await page.close();
});

/** @param {import('playwright-core').Page} page @param {string} item */
async function openUserMenuItem(page, item) {
  await page.getByTestId('user-menu-toggle').click();
  await page.getByTestId(item).click();
}

/** The header's balance as a number. @param {import('playwright-core').Page} page */
async function headerBalance(page) {
  const text = await page.getByTestId('balance').filter({ hasText: /\d+\.\d{2}/ }).innerText();
  return Number(text.replace(/[^\d.-]/g, ''));
}

test('security auth: set up with a QR code, log in with a code, turn it off', async () => {
  // The code generator matches RFC 6238's SHA-1 test vector (T = 59 s).
  assert.equal(totp(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'), 1), '287082');

  const { page, errors } = await freshPage();
  await logInReady(page, 'demo2');
  await openUserMenuItem(page, 'menu-security-auth');
  await page.getByTestId('security-auth-page').waitFor();
  await page.getByTestId('security-disabled').waitFor();
  await shoot(page, 'security-auth-off');

  await page.getByTestId('security-setup').click();
  await page.getByTestId('security-qr').locator('svg').waitFor();
  const key = base32Decode(await page.getByTestId('security-secret').innerText());
  await shoot(page, 'security-auth-setup');

  // A wrong code is refused with the server's message; the right one turns it on.
  const enableStep = await firstStep();
  const wrong = String((Number(totp(key, enableStep)) + 1) % 1_000_000).padStart(6, '0');
  await page.getByTestId('security-otp').fill(wrong);
  await page.getByTestId('security-enable').click();
  await page.getByText('The code is not correct.', { exact: false }).waitFor();
  await page.getByTestId('security-otp').fill(totp(key, enableStep));
  await page.getByTestId('security-enable').click();
  await page.getByTestId('security-enabled').waitFor();
  await page.getByTestId('security-disable').waitFor();
  assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('userinfo') ?? '{}').security_enabled), 1);
  await shoot(page, 'security-auth-on');

  // Log-in now asks for the code; the step used to enable cannot be used again.
  await page.getByTestId('user-menu-toggle').click();
  await page.getByTestId('logout').click();
  await logIn(page, 'demo2');
  await page.getByTestId('otp-code').waitFor();
  assert.equal(hashOf(page), '#/login');
  await shoot(page, 'security-auth-login-code');
  await page.getByTestId('otp-code').fill(totp(key, enableStep));
  await page.getByTestId('otp-submit').click();
  await page.getByText('This code has already been used. Wait for the next one.').waitFor();
  const login = await nextCode(key, enableStep);
  await page.getByTestId('otp-code').fill(login.code);
  await page.getByTestId('otp-submit').click();
  await page.getByTestId('welcome-popup').waitFor();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  assert.equal(await page.getByTestId('user-name').innerText(), 'demo2');
  assert.equal(await page.evaluate(() => localStorage.getItem('otpVerify')), null);

  // The page reads the state from the server and offers to turn it off (password and a new code).
  await openUserMenuItem(page, 'menu-security-auth');
  await page.getByTestId('security-enabled').waitFor();
  assert.equal(await page.getByTestId('security-setup').count(), 0);
  await page.getByTestId('security-disable-password').fill('Demo@1234');
  await page.getByTestId('security-disable-otp').fill(login.code);
  await page.getByTestId('security-disable').click();
  await page.getByText('This code has already been used. Wait for the next one.').waitFor();
  const off = await nextCode(key, login.step);
  await page.getByTestId('security-disable-otp').fill(off.code);
  await page.getByTestId('security-disable').click();
  await page.getByTestId('security-setup').waitFor();
  assert.equal(await page.getByTestId('security-enabled').count(), 0);
  await shoot(page, 'security-auth-turned-off');

  // Log-in asks only for the password again.
  const plain = await server.api('user/login', { user_name: 'demo2', password: 'Demo@1234' });
  assert.equal(plain.status, 200);
  assert.ok(plain.body.data.token, JSON.stringify(plain.body));
  assert.equal(plain.body.data.security_enabled, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a locked account is told so on the login page', async () => {
  const admin = await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' });
  const adminToken = admin.body.data.token;
  const users = await server.api('admin/user/list', { limit: 100 }, adminToken);
  const demo2 = users.body.data.rows.find((/** @type {{user_name: string}} */ u) => u.user_name === 'demo2');
  assert.equal((await server.api('admin/user/lock', { user_id: demo2.user_id, locked: 1 }, adminToken)).status, 200);
  try {
    const { page, errors } = await freshPage();
    await logIn(page, 'demo2', 'Demo@1234');
    await page.getByTestId('error-message').filter({ hasText: 'This account is locked. Contact your agent.' }).waitFor();
    assert.equal(hashOf(page), '#/login');
    await shoot(page, 'login-locked');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    assert.equal((await server.api('admin/user/lock', { user_id: demo2.user_id, locked: 0 }, adminToken)).status, 200);
  }
});

test('a refused deposit shows the reason and the user stays logged in', async () => {
  const { page, errors } = await freshPage();
  await logInReady(page);
  await page.getByTestId('deposit-withdraw-link').click();
  await page.getByTestId('deposit-withdraw-page').waitFor();
  await page.getByTestId('dw-amount').fill('500');
  await page.getByTestId('dw-reference').fill(`UTR-OFF-${Date.now()}`);

  // The operator turns payments off while the form is open: the server refuses the request
  // with a 422 and its reason, which the app shows. A 403 here would log the user out (spec §8).
  const admin = await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' });
  const adminToken = admin.body.data.token;
  assert.equal((await server.api('admin/settings', { payment_gateway: 0 }, adminToken)).status, 200);
  try {
    await page.getByTestId('dw-submit').click();
    await page.getByTestId('deposit-form').getByTestId('error-message')
      .filter({ hasText: 'Deposits and withdrawals are turned off on this site.' }).waitFor();
    await shoot(page, 'deposit-refused');
    assert.equal(hashOf(page), '#/setting/d-w');
    assert.ok(await page.evaluate(() => localStorage.getItem('usertoken')), 'still logged in');
    await page.getByTestId('balance').filter({ hasText: /\d+\.\d{2}/ }).waitFor();
  } finally {
    assert.equal((await server.api('admin/settings', { payment_gateway: 1 }, adminToken)).status, 200);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a deposit request is approved by the agent and credited', async () => {
  const { page, errors } = await freshPage();
  await logInReady(page);
  const before = await headerBalance(page);
  const reference = `UTR${Date.now()}`;

  await page.getByTestId('deposit-withdraw-link').click();
  await page.getByTestId('deposit-withdraw-page').waitFor();
  await page.getByTestId('dw-amount').fill('2500');
  await page.getByTestId('dw-reference').fill(reference);
  await shoot(page, 'deposit-filled');
  await page.getByTestId('dw-submit').click();
  await page.getByText('Deposit request of ₹2,500.00 sent', { exact: false }).first().waitFor();
  assert.equal(await page.getByTestId('dw-amount').inputValue(), '');

  await page.getByTestId('deposit-withdraw-page').getByRole('link', { name: 'Payment Statement' }).click();
  const row = page.getByTestId('report-table').locator('tbody tr').filter({ hasText: reference });
  await row.waitFor();
  assert.equal(hashOf(page), '#/report/payment-withdraw');
  assert.match(await row.innerText(), /deposit[\s\S]*₹2,500\.00[\s\S]*pending/);
  await shoot(page, 'payment-statement-pending');

  // The agent approves it through the API.
  const agent = await server.api('user/login', { user_name: 'agent', password: 'Agent@1234' });
  const agentToken = agent.body.data.token;
  const pending = await server.api('admin/payment/list', { status: 'pending' }, agentToken);
  assert.equal(pending.status, 200, JSON.stringify(pending.body));
  const request = pending.body.data.rows.find((/** @type {{reference?: string}} */ r) => r.reference === reference);
  assert.ok(request, `the agent sees the request: ${JSON.stringify(pending.body.data.rows)}`);
  assert.equal(request.user_name, 'demo');
  const approved = await server.api('admin/payment/approve', { request_id: request.request_id, remark: 'Transfer received' }, agentToken);
  assert.equal(approved.status, 200, JSON.stringify(approved.body));

  await page.reload();
  await row.filter({ hasText: 'approved' }).waitFor();
  assert.match(await row.innerText(), /Transfer received/);
  await page.getByTestId('balance').filter({ hasText: exactly(before + 2500) }).waitFor();
  assert.equal(await headerBalance(page), before + 2500);
  await shoot(page, 'payment-statement-approved');
  assert.deepEqual(errors, []);
  await page.close();
});
