// @ts-check
// The app under its Content-Security-Policy: the page is sent with the policy, a journey over
// the app's pages — sign-up, log-in, a toast, a match with its live stream, a casino table
// with its stream and cards, a round re-checked with WebCrypto, the framed built-in provider's
// game played through the wallet, reports, security auth's QR code, the rules — reports no
// violation, and what the policy is there to stop (a frame off the allow-list, an injected
// inline script) is stopped and reported, which shows the listener hears violations.
//
// Violations are collected from every frame two ways: `securitypolicyviolation` events (a
// listener added to each document before its scripts run) and Chromium's console messages.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, newPage, pollUntil, settled, startServer } from '../harness.mjs';

const WINDOW_SECONDS = 5;
/** A casino round: the window, the deal and the result pause, with room to spare. */
const ROUND_WAIT = { timeout: (WINDOW_SECONDS + 25) * 1000 };

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {{ frame: string, directive: string, blocked: string, source: string, sample: string }[]} */
const violations = [];
/** @type {string[]} */
const consoleCsp = [];
/** @type {string[]} */
const pageErrors = [];

/** The policy's directives by name. @param {string} policy */
function directives(policy) {
  return Object.fromEntries(
    policy.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name, values]),
  );
}

before(async () => {
  // A quick deal and a short hold, as casino.test.mjs: only the last results matter here.
  server = await startServer({ extraArgs: ['--no-demo-feed', '--casino-window-seconds', String(WINDOW_SECONDS), '--casino-card-ms', '200', '--casino-result-seconds', '2'] });
  browser = await launchBrowser();
  await browser.context.exposeBinding('__reportCspViolation', ({ frame }, /** @type {any} */ v) => {
    violations.push({ frame: frame.url(), ...v });
  });
  await browser.context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      // @ts-expect-error: the binding exposed above, which the DOM's types do not know
      window.__reportCspViolation({
        directive: e.effectiveDirective,
        blocked: e.blockedURI,
        source: `${e.sourceFile}:${e.lineNumber}`,
        sample: e.sample,
      });
    });
  });
  page = await newPage(browser);
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) consoleCsp.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A frame address the policy refuses, whose report `lastReportsIn` waits for. */
const SENTINEL = 'http://csp-sentinel.invalid/';

/**
 * Waits until every report the page has to make is in. Once the page has caught up (rendered,
 * fonts loaded: what it loads it has asked for, and a refused load is reported when asked for),
 * a frame off the allow-list is added and refused; its report, event and console message, comes
 * behind every earlier one of the page's. That report is then taken out of the lists.
 */
async function lastReportsIn() {
  await settled(page);
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.id = 'csp-sentinel';
    frame.src = src;
    document.body.append(frame);
  }, SENTINEL);
  const host = new URL(SENTINEL).host;
  const isSentinel = (/** @type {{ blocked: string }} */ v) => v.blocked.includes(host);
  const arrived = () => violations.some(isSentinel) && consoleCsp.some((m) => m.includes(host));
  await pollUntil(arrived, (yes) => yes, { timeoutMs: 10_000, intervalMs: 20 });
  await page.evaluate(() => document.getElementById('csp-sentinel')?.remove());
  assert.ok(violations.some(isSentinel), `the sentinel frame was reported: ${JSON.stringify(violations)}`);
  assert.ok(consoleCsp.some((m) => m.includes(host)), `the sentinel frame was logged: ${JSON.stringify(consoleCsp)}`);
  violations.splice(0, violations.length, ...violations.filter((v) => !isSentinel(v)));
  consoleCsp.splice(0, consoleCsp.length, ...consoleCsp.filter((m) => !m.includes(host)));
}

test('the page is sent with a strict policy that frames only the casino allow-list', async () => {
  const answer = await fetch(`${server.baseUrl}/`);
  assert.equal(answer.status, 200);
  const policy = answer.headers.get('content-security-policy') ?? '';
  const d = directives(policy);
  assert.deepEqual(d['script-src'], ["'self'"], policy);
  assert.deepEqual(d['style-src'], ["'self'"], policy);
  assert.deepEqual(d['object-src'], ["'none'"], policy);
  assert.deepEqual(d['base-uri'], ["'none'"], policy);
  assert.deepEqual(d['frame-ancestors'], ["'none'"], policy);
  // The built-in provider's origin (the server's public URL) is the whole allow-list here.
  assert.deepEqual(d['frame-src'], [server.baseUrl], policy);
});

test('a journey over the app raises no policy violation', async () => {
  // The sign-up form (logged out), then log-in; the button values saved, with a toast (its
  // styles are in the app's stylesheet).
  await page.goto(`${server.baseUrl}/#/sign-up`);
  await page.getByTestId('signup-submit').waitFor();
  await page.goto(`${server.baseUrl}/#/login`);
  await page.getByTestId('login-user-name').fill('demo');
  await page.getByTestId('login-password').fill('Demo@1234');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  await page.getByTestId('balance').filter({ hasText: /\d+\.\d{2}/ }).waitFor();
  await page.getByTestId('user-menu-toggle').click();
  await page.getByTestId('menu-button-values').click();
  const modal = page.getByTestId('button-values-modal');
  await modal.getByTestId('button-value-row').first().waitFor();
  await modal.getByTestId('button-values-update').click();
  const toast = page.locator('.Toastify__toast').first();
  await toast.waitFor();
  assert.equal(await toast.evaluate((el) => getComputedStyle(el).position), 'relative', 'the toast is styled');

  // A match, following its markets on the live stream.
  const matchStream = page.waitForResponse((r) => r.url().includes('/api/stream?match_id='));
  await page.getByTestId('search-toggle').click();
  await page.getByTestId('search-input').fill('India');
  await page.getByTestId('search-result').filter({ hasText: 'India v Australia' }).first().click();
  await page.getByTestId('match-title').filter({ hasText: 'India v Australia' }).waitFor();
  assert.equal((await matchStream).status(), 200);

  // A casino table on its stream; a round settles and its page checks the commitment in the
  // browser (WebCrypto).
  const roundStream = page.waitForResponse((r) => r.url().includes('/api/stream?casino=dt6&ticket='));
  await page.getByRole('link', { name: 'DT 1 DAY', exact: true }).click();
  await page.getByTestId('casino-table').waitFor();
  assert.equal((await roundStream).status(), 200);
  const settled = page.getByTestId('casino-last-results').locator('a[href*="/casino/round/"]').first();
  await settled.waitFor(ROUND_WAIT);
  await settled.click();
  await page.getByTestId('casino-round-page').waitFor();
  await page.getByTestId('commitment-check').filter({ hasText: /matches/i }).waitFor();

  // The world casino: the built-in provider's game in its frame, played through the wallet.
  await page.goto(`${server.baseUrl}/#/`);
  await page.getByRole('link', { name: 'INT Casino', exact: true }).click();
  await page.getByTestId('world-casino-search').fill('baccarat');
  const tile = page.getByTestId('world-casino-games').getByRole('button').first();
  await tile.waitFor();
  await tile.click();
  await page.getByTestId('casino-game-page').waitFor();
  const game = page.frameLocator('iframe.game-frame');
  await game.locator('#balance').filter({ hasText: /\d\.\d{2}$/ }).waitFor();
  await game.locator('#markets button').first().click();
  await game.locator('#stake').fill('100');
  await game.locator('#deal').click();
  await game.locator('#result').waitFor();

  // Reports, security auth's QR code, the rules.
  await page.goto(`${server.baseUrl}/#/report/account-statement`);
  await page.getByTestId('account-statement-page').waitFor();
  await page.goto(`${server.baseUrl}/#/security-auth/`);
  await page.getByTestId('security-setup').click();
  await page.getByTestId('security-qr').locator('svg').waitFor();
  await page.goto(`${server.baseUrl}/#/page/rules`);
  await page.getByRole('tab').first().waitFor();
  await lastReportsIn();

  assert.deepEqual(violations, [], 'securitypolicyviolation events');
  assert.deepEqual(consoleCsp, [], 'console messages about the policy');
  assert.deepEqual(pageErrors, []);
});

test('a frame off the allow-list and an injected inline script are blocked and reported', async () => {
  await page.goto(`${server.baseUrl}/#/`);
  await page.getByTestId('balance').filter({ hasText: /\d+\.\d{2}/ }).waitFor();
  const offList = `${server.baseUrl.replace('127.0.0.1', 'localhost')}/provider/play`;
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.src = src;
    document.body.append(frame);
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.body.append(script);
  }, offList);
  await pollUntil(() => violations.length, (n) => n >= 2, { timeoutMs: 5_000 });
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).__injected), undefined, 'the inline script did not run');
  const seen = violations.map((v) => v.directive).sort();
  assert.deepEqual(seen, ['frame-src', 'script-src-elem'], JSON.stringify(violations));
  assert.ok(violations.some((v) => v.blocked.startsWith(offList.replace('/provider/play', ''))), JSON.stringify(violations));
  violations.length = 0;
});
