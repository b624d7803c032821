// @ts-check
// Browser-test harness: the real `backlay` server on a port it picks itself with a fresh
// SQLite file and the demo data, and the machine's own Chromium driven by
// playwright-core (which never downloads a browser).
//
//   const server = await startServer();   // { baseUrl, stop() }
//   const browser = await launchBrowser(); // { context, close() }
//   const page = await newPage(browser);
//   await page.goto(server.baseUrl + '/');
//   ...
//   await shoot(page, 'home');            // e2e/screenshots/home-1280.png and home-390.png
//   await browser.close(); await server.stop();

import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));

/** The server binary: $BACKLAY_BIN, or the debug build of the workspace. */
export const BACKLAY_BIN = path.resolve(process.env.BACKLAY_BIN ?? path.join(E2E_DIR, '../target/debug/backlay'));
/** The built client the server serves (`npm run build` in web/). */
export const WEB_DIR = path.resolve(E2E_DIR, '../web/dist');
/** Where `shoot` saves its screenshots. */
export const SHOTS_DIR = path.join(E2E_DIR, 'screenshots');
/** The two widths every screenshot is taken at: a laptop and a phone. */
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const CHROMIUM_BIN = '/usr/bin/chromium';
// Headless, no sandbox (we run as root in a container), and nothing that phones
// home: the machine has no internet, and a stray request would only add noise.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const HEALTH_TIMEOUT_MS = 60_000;
const HEALTH_POLL_MS = 100;
const HEALTH_REQUEST_TIMEOUT_MS = 2_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_KEEP_CHARS = 32 * 1024;
/** How many of the server's last lines `waitForOutput` looks back through. */
const OUTPUT_KEEP_LINES = 2_000;
/** How long `waitForOutput` waits by default. */
const OUTPUT_WAIT_MS = 60_000;
const PAGE_TIMEOUT_MS = 10_000;
/** The line the server prints once it listens (crates/backlay/src/main.rs keeps its form). */
const RUNNING_AT = /^Backlay is running at (http:\/\/[^/\s]+)\//;

/** Servers still running, killed if the test process exits without stopping them. @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * @typedef {object} Server
 * @property {string} baseUrl   e.g. http://127.0.0.1:41234
 * @property {number} port
 * @property {string} dataDir   the fresh temporary directory holding e2e.db
 * @property {() => string} logs  the tail of the server's stderr and stdout
 * @property {(pattern: RegExp, timeoutMs?: number) => Promise<void>} waitForOutput  resolves once
 *   the server has written a line matching `pattern` (since it started), e.g. a background job's
 *   "done"; rejects with the logs after `timeoutMs`
 * @property {() => Promise<void>} stop  kill the server and remove its directory (safe to call twice)
 * @property {() => Promise<void>} kill9  SIGKILL the server (no goodbye to its cluster) and wait for it to exit
 * @property {(apiPath: string, body: unknown, token?: string) => Promise<{ status: number, body: any }>} api
 *   a POST to `/api/<apiPath>` with a JSON body (and the bearer token, if given), for a test's
 *   set-up and checks that go round the browser: its status and parsed answer
 */

/**
 * Starts `backlay serve` with demo data and waits until `/api/health` answers 200.
 * @param {{ extraArgs?: string[], databaseUrl?: string }} [options]  more `serve` flags, e.g. a
 *   short casino window; a database other than a fresh SQLite file (a PostgreSQL database several
 *   servers share, with a `--secret-key-file` in `extraArgs`)
 * @returns {Promise<Server>}
 */
export async function startServer({ extraArgs = [], databaseUrl } = {}) {
  await mustExist(BACKLAY_BIN, 'server binary (run `cargo build -p backlay`, or set BACKLAY_BIN)');
  await mustExist(path.join(WEB_DIR, 'index.html'), 'built client (run `npm ci && npm run build` in web/)');

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'backlay-e2e-'));
  const args = [
    'serve',
    '--addr', '127.0.0.1:0',
    '--database-url', databaseUrl ?? `sqlite://${path.join(dataDir, 'e2e.db')}`,
    '--demo',
    '--web-dir', WEB_DIR,
    ...extraArgs,
  ];
  const child = spawn(BACKLAY_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);

  let stderr = '';
  let stdout = '';
  /** @type {Error | null} */
  let spawnError = null;
  const keepTail = (/** @type {string} */ text) => text.slice(-OUTPUT_KEEP_CHARS);
  // Every complete line the server writes is offered to the `waitForOutput` calls waiting; the
  // last OUTPUT_KEEP_LINES are kept for the calls that come later.
  /** @type {string[]} */
  const lines = [];
  /** @type {Set<{ pattern: RegExp, resolve: () => void }>} */
  const waiting = new Set();
  const partial = { stderr: '', stdout: '' };
  // The server picks its own port (port 0) and prints it: a port picked here and let go could
  // be taken by another suite's server or connection before the server, seeding first, binds it.
  let baseUrl = '';
  const onOutput = (/** @type {'stderr' | 'stdout'} */ stream, /** @type {string} */ chunk) => {
    const complete = (partial[stream] + chunk).split('\n');
    partial[stream] = complete.pop() ?? '';
    for (const line of complete) {
      const running = stream === 'stdout' && !baseUrl ? RUNNING_AT.exec(line) : null;
      if (running) baseUrl = running[1];
      lines.push(line);
      for (const waiter of waiting) {
        if (waiter.pattern.test(line)) {
          waiting.delete(waiter);
          waiter.resolve();
        }
      }
    }
    if (lines.length > OUTPUT_KEEP_LINES) lines.splice(0, lines.length - OUTPUT_KEEP_LINES);
  };
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = keepTail(stderr + chunk);
    onOutput('stderr', chunk);
  });
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    stdout = keepTail(stdout + chunk);
    onOutput('stdout', chunk);
  });
  child.on('error', (error) => (spawnError = error));
  // 'close' comes after the exit *and* the last output, so an early death is
  // reported with all it said. A child that could not be spawned emits only 'error'.
  let closed = false;
  const exited = new Promise((resolve) => {
    child.once('close', () => resolve((closed = true)));
    child.once('error', resolve);
  });

  const logs = () => `--- server stderr ---\n${stderr || '(empty)'}\n--- server stdout ---\n${stdout || '(empty)'}`;

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    if (!spawnError && !closed) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    running.delete(child);
    await rm(dataDir, { recursive: true, force: true });
  }

  async function kill9() {
    if (!spawnError && !closed) {
      child.kill('SIGKILL');
      await exited;
    }
  }

  try {
    await waitForHealth(() => baseUrl, () => {
      if (spawnError) return `could not start ${BACKLAY_BIN}: ${spawnError.message}`;
      if (closed) {
        return `server exited early (code ${child.exitCode}, signal ${child.signalCode})`;
      }
      return null;
    });
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}\ncommand: ${BACKLAY_BIN} ${args.join(' ')}\n${logs()}`, { cause: error });
  }
  /** @type {Server['api']} */
  async function api(apiPath, body, token) {
    const response = await fetch(`${baseUrl}/api/${apiPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }
  /** @type {Server['waitForOutput']} */
  async function waitForOutput(pattern, timeoutMs = OUTPUT_WAIT_MS) {
    if (lines.some((line) => pattern.test(line))) return;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    /** @type {{ pattern: RegExp, resolve: () => void } | undefined} */
    let waiter;
    try {
      await new Promise((resolve, reject) => {
        waiter = { pattern, resolve: () => resolve(undefined) };
        waiting.add(waiter);
        timer = setTimeout(
          () => reject(new Error(`the server wrote nothing matching ${pattern} in ${timeoutMs} ms\n${logs()}`)),
          timeoutMs,
        );
      });
    } finally {
      clearTimeout(timer);
      if (waiter) waiting.delete(waiter);
    }
  }
  return { baseUrl, port: Number(new URL(baseUrl).port), dataDir, logs, stop, kill9, api, waitForOutput };
}

/**
 * Polls GET /api/health, once the server has said where it listens, until it answers 200, the
 * server dies, or the time is up.
 * @param {() => string} baseUrlNow  the server's base URL, '' until it has printed it
 * @param {() => string | null} deadReason  why the server can no longer come up, if it cannot
 */
async function waitForHealth(baseUrlNow, deadReason) {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  let last = 'the server has not printed its address yet';
  while (Date.now() < deadline) {
    const dead = deadReason();
    if (dead) throw new Error(dead);
    const baseUrl = baseUrlNow();
    if (!baseUrl) {
      await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
      continue;
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(HEALTH_REQUEST_TIMEOUT_MS) });
      if (response.status === 200) return;
      last = `last answer HTTP ${response.status}`;
    } catch (error) {
      // fetch hides the useful part (ECONNREFUSED, …) in `cause`.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      last = `last error: ${cause instanceof Error ? cause.message : String(cause)}`;
    }
    await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
  }
  throw new Error(`server not healthy at ${baseUrlNow() || '(no address printed)'}/api/health within ${HEALTH_TIMEOUT_MS / 1000} s (${last})`);
}

/** @param {string} file @param {string} what */
async function mustExist(file, what) {
  try {
    await access(file);
  } catch {
    throw new Error(`missing ${what}: ${file}`);
  }
}

/**
 * @typedef {object} Browser
 * @property {import('playwright-core').BrowserContext} context
 * @property {() => Promise<void>} close  close Chromium and remove its profile (safe to call twice)
 */

/**
 * Launches the machine's Chromium with a fresh profile directory. Playwright
 * refuses a `--user-data-dir` flag, so the profile goes through
 * launchPersistentContext instead.
 * @returns {Promise<Browser>}
 */
export async function launchBrowser() {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'backlay-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_BIN,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  let closed = false;
  return {
    context,
    async close() {
      if (closed) return;
      closed = true;
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new tab with a short default timeout, so a missing element fails in
 * seconds with a clear locator message rather than at the runner's timeout.
 * @param {Browser} browser
 */
export async function newPage(browser) {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT_MS);
  return page;
}

/**
 * Logs `userName` in through the log-in page and closes the welcome popup, as a bettor does;
 * answers the session token the app stored. The pages of one browser share it.
 * @param {import('playwright-core').Page} page
 * @param {string} baseUrl  the server's, e.g. `server.baseUrl`
 * @returns {Promise<string>}
 */
export async function logInAs(page, baseUrl, userName = 'demo', password = 'Demo@1234') {
  await page.goto(`${baseUrl}/#/login`);
  await logIn(page, userName, password);
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  return page.evaluate(() => localStorage.getItem('usertoken') ?? '');
}

/**
 * Saves the page at 1280 and at 390 px wide as `SHOTS_DIR/<name>-1280.png` and `-390.png`,
 * each once the page has settled at that width, and leaves it at 1280.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
export async function shoot(page, name) {
  await mkdir(SHOTS_DIR, { recursive: true });
  for (const [viewport, suffix] of /** @type {const} */ ([[DESKTOP, '1280'], [PHONE, '390']])) {
    await page.setViewportSize(viewport);
    await settled(page);
    // Animations that never end (the site message's marquee, a spinner) are held at their start.
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${suffix}.png`), animations: 'disabled' });
  }
  await page.setViewportSize(DESKTOP);
}

/**
 * Waits until the page has caught up with a change (a new viewport width): the resize handled
 * and rendered (two animation frames: React's re-render for a media query lands before the
 * second), the fonts loaded, and every transition or animation that will end (the sidebar
 * sliding away on a phone) ended.
 * @param {import('playwright-core').Page} page
 */
export async function settled(page) {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    await frame();
    await frame();
    await document.fonts.ready;
    const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    // A cancelled animation rejects `finished`; it has ended all the same.
    await Promise.allSettled(ending.map((a) => a.finished));
    await frame();
  });
}

/**
 * Reads `read()` until `done` holds for what it answered, or `timeoutMs` is up, pausing
 * `intervalMs` between reads; answers the last value read, for the caller to assert on.
 * @template T
 * @param {() => T | Promise<T>} read
 * @param {(value: T) => boolean} done
 * @param {{ timeoutMs: number, intervalMs?: number }} bounds
 * @returns {Promise<T>}
 */
export async function pollUntil(read, done, { timeoutMs, intervalMs = 100 }) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    value = await read();
  }
  return value;
}

/**
 * A tab of `browser` at the log-in page with empty storage (the session of whoever used the
 * browser before is gone), and the page errors it collects.
 * @param {Browser} browser
 * @param {string} baseUrl  the server's, e.g. `server.baseUrl`
 */
export async function freshPage(browser, baseUrl) {
  const page = await newPage(browser);
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${baseUrl}/`);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.goto(`${baseUrl}/#/login`);
  await page.reload();
  await page.getByTestId('login-submit').waitFor();
  return { page, errors };
}

/**
 * Fills the log-in page and submits it; where it leads (the console, the forced password
 * change, the betting app) is the caller's to wait for.
 * @param {import('playwright-core').Page} page  at `#/login`
 * @param {string} userName @param {string} password
 */
export async function logIn(page, userName, password) {
  await page.getByTestId('login-user-name').fill(userName);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * The forced first change: from the password the parent gave to one's own.
 * @param {import('playwright-core').Page} page @param {string} given @param {string} own
 */
export async function chooseOwnPassword(page, given, own) {
  await page.getByTestId('change-password-page').waitFor();
  await page.getByTestId('cp-master-password').fill(given);
  await page.getByTestId('cp-new-password').fill(own);
  await page.getByTestId('cp-confirm-password').fill(own);
  await page.getByTestId('cp-submit').click();
}

/**
 * Opens the console's Downline screen: the console lands on its dashboard, the downline is one
 * click away. A page already on it stays where it is (drilled in or searched).
 * @param {import('playwright-core').Page} page
 */
export async function openDownline(page) {
  await page.getByTestId('console-layout').waitFor();
  if (!(await page.getByTestId('downline-page').isVisible())) {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Downline', exact: true }).click();
  }
  await page.getByTestId('downline-page').waitFor();
}

/**
 * Creates an account from the console's downline screen and answers its row.
 * @param {import('playwright-core').Page} page @param {string} userName @param {string} password
 * @param {{ role?: 'agent' | 'client', partnership?: string }} [terms]
 *   no role: the form's own choice, a client; an agent's partnership in percent
 */
export async function createAccount(page, userName, password, { role, partnership } = {}) {
  await openDownline(page);
  await page.getByTestId('create-account').click();
  const dialog = page.getByTestId('create-account-dialog');
  await dialog.getByTestId('create-user-name').fill(userName);
  await dialog.getByTestId('create-password').fill(password);
  if (role) await dialog.getByTestId('create-role').selectOption(role);
  if (partnership !== undefined) await dialog.getByTestId('create-partnership').fill(partnership);
  await dialog.getByTestId('create-submit').click();
  await dialog.waitFor({ state: 'detached' });
  return page.locator(`[data-testid="downline-row"][data-user-name="${userName}"]`);
}

/**
 * Deposits chips to a downline row's account and waits for its new balance.
 * @param {import('playwright-core').Page} page @param {import('playwright-core').Locator} row
 * @param {string} amount @param {string} remark @param {string} balanceText
 */
export async function deposit(page, row, amount, remark, balanceText) {
  await row.getByTestId('row-deposit').click();
  const dialog = page.getByTestId('transfer-dialog');
  await dialog.getByTestId('transfer-amount').fill(amount);
  await dialog.getByTestId('transfer-remark').fill(remark);
  await dialog.getByTestId('transfer-submit').click();
  await dialog.waitFor({ state: 'detached' });
  await row.getByTestId('downline-balance').filter({ hasText: balanceText }).waitFor();
}
