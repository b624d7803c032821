// @ts-check
// The bettor's app in Hindi (issue 32 item 8): no screen shows a word of the English catalogue.
// The demo bettor logs in, switches to हिन्दी from the user menu, and walks every route of the
// app (web/src/app/routes.tsx) — home, a sport, a match with its bet slip open, a race card, a
// casino table, a casino round, each report, the settings pages, the rules — and the pop-ups: the
// user menu, the rules, button values, change password, My Market, the search; then logs out to
// the log-in and sign-up pages (still in Hindi) and logs in again to the welcome pop-up. At
// 1280×800 and at 390×844 each screen's visible text, and the placeholder, aria-label, title, alt
// and data-label (a phone's column names) of what is visible, are searched for every text of the
// English catalogue (web/src/i18n/locales/en/*.json) whose Hindi differs: each fixed part of it
// (what is left around its {{placeholders}} and <tags>), as whole words, case as written. Parts
// of one or two characters, of no letter, or written the same in a Hindi text ("IFSC", "CSV") are
// not searched. What the server sends (names of sports, matches, markets and runners, statement
// lines, messages) is not the app's catalogue: every string of every JSON answer the page read is
// taken out of the text before the search. A finding names the route, the width, the catalogue
// key, the English words and the text they were found in.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { launchBrowser, logIn, logInAs, newPage, pollUntil, settled, startServer } from '../harness.mjs';
import { VIEWPORTS } from '../viewport.mjs';

const LOCALES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/i18n/locales');
/** A casino round: a 5 s window, a quick deal and a short pause, as csp.test.mjs. */
const WINDOW_SECONDS = 5;
const ROUND_WAIT_MS = (WINDOW_SECONDS + 25) * 1000;
const MATCH_NAME = 'Herons v Kestrels';
/** Server strings shorter than this are not taken out of a text (a "No" would hide a word). */
const SERVER_TEXT_MIN_CHARS = 3;

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
const pageErrors = [];
/** Every string the server answered (JSON bodies under /api/), longest first when used. */
const serverTexts = new Set();
/** Reads of answers still under way: awaited before a screen is searched. @type {Set<Promise<void>>} */
const reading = new Set();
/** @type {Finding[]} */
const findings = [];
let adminToken = '';
let demoToken = '';
/** The match made for this test, with the bettor's bets. */
let createdMatch = 0;

/**
 * @typedef {object} Needle  one fixed part of an English text, searched as whole words
 * @property {string} key      `namespace:dotted.key`
 * @property {string} english  the part as written
 * @property {RegExp} pattern
 *
 * @typedef {object} Finding
 * @property {string} screen
 * @property {number} width
 * @property {string} key
 * @property {string} english
 * @property {string} where    what held it: text, or the attribute's name, and the nearest data-testid
 * @property {string} text     the text it was found in
 */

// ---------------------------------------------------------------------------------------------
// The catalogue

/** Every leaf of a catalogue tree as `prefix.key` → text. @param {Record<string, unknown>} tree @param {string} prefix @param {Map<string, string>} out */
function leaves(tree, prefix, out) {
  for (const [key, value] of Object.entries(tree)) {
    const at = prefix.endsWith(':') ? `${prefix}${key}` : `${prefix}.${key}`;
    if (typeof value === 'string') out.set(at, value);
    else if (value && typeof value === 'object') leaves(/** @type {Record<string, unknown>} */ (value), at, out);
  }
  return out;
}

/** One language's catalogue, every namespace. @param {'en' | 'hi'} language */
async function catalogue(language) {
  const dir = path.join(LOCALES, language);
  const out = new Map();
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.json')).sort()) {
    leaves(JSON.parse(await readFile(path.join(dir, file), 'utf8')), `${file.replace(/\.json$/, '')}:`, out);
  }
  return /** @type {Map<string, string>} */ (out);
}

/** @param {string} text */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A phrase as whole words: no letter or digit may touch its ends where they are a letter or digit. @param {string} phrase */
function wholeWords(phrase) {
  const start = /^[\p{L}\p{N}]/u.test(phrase) ? '(?<![\\p{L}\\p{N}])' : '';
  const end = /[\p{L}\p{N}]$/u.test(phrase) ? '(?![\\p{L}\\p{N}])' : '';
  return new RegExp(`${start}${escape(phrase)}${end}`, 'u');
}

/**
 * What is searched for: the fixed parts of each English text whose Hindi differs, the
 * {{placeholders}} and <tags> cut out, at least 3 characters with a letter, and not found as
 * whole words in any Hindi text (a term both languages write alike, e.g. "IFSC" in "IFSC कोड").
 */
async function needles() {
  const en = await catalogue('en');
  const hi = await catalogue('hi');
  const hindiTexts = [...hi.values()];
  /** @type {Needle[]} */
  const out = [];
  const seen = new Set();
  for (const [key, english] of en) {
    if (hi.get(key) === english) continue;
    for (const raw of english.split(/\{\{[^}]*\}\}|<\/?[\w]+\s*\/?>/)) {
      const part = raw.trim();
      if (part.length < 3 || !/\p{L}/u.test(part) || seen.has(part)) continue;
      const pattern = wholeWords(part);
      if (hindiTexts.some((text) => pattern.test(text))) continue;
      seen.add(part);
      out.push({ key, english: part, pattern });
    }
  }
  return out;
}

/** @type {Needle[]} */
let NEEDLES = [];

// ---------------------------------------------------------------------------------------------
// What a screen shows

/**
 * The visible texts of the page: each text node of a visible element, the options of a visible
 * select, and the placeholder, aria-label, title, alt and data-label of visible elements, each
 * with the nearest data-testid around it.
 */
function visibleTexts() {
  /** @type {{ text: string, where: string }[]} */
  const out = [];
  /** @param {Element | null} el */
  const testIdOf = (el) => el?.closest('[data-testid]')?.getAttribute('data-testid') ?? '';
  /** @param {Element} el */
  const visible = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = (node.textContent ?? '').trim();
    if (!parent || !text || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
    // An option is drawn inside its select, which is what shows.
    const shown = parent.closest('option') ? parent.closest('select') : parent;
    if (shown && visible(shown)) out.push({ text, where: `text in ${testIdOf(parent) || parent.tagName.toLowerCase()}` });
  }
  for (const el of Array.from(document.body.querySelectorAll('[placeholder], [aria-label], [title], [alt], [data-label]'))) {
    if (!visible(el)) continue;
    for (const name of ['placeholder', 'aria-label', 'title', 'alt', 'data-label']) {
      const value = el.getAttribute(name)?.trim();
      if (value) out.push({ text: value, where: `${name} of ${testIdOf(el) || el.tagName.toLowerCase()}` });
    }
  }
  return out;
}

/** Every string in a JSON value. @param {unknown} value @param {Set<string>} into */
function stringsOf(value, into) {
  if (typeof value === 'string') {
    if (value.trim()) into.add(value.trim());
  } else if (Array.isArray(value)) {
    for (const item of value) stringsOf(item, into);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) stringsOf(item, into);
  }
}

/** A text with the server's strings taken out: null when it is one of them. @param {string} text @param {string[]} server */
function withoutServerText(text, server) {
  if (serverTexts.has(text)) return null;
  let rest = text;
  for (const s of server) if (rest.includes(s)) rest = rest.split(s).join(' ');
  return rest;
}

/**
 * Searches the page as it is now at both widths, noting what of the catalogue it shows; leaves
 * the page at the desktop width. `prepare` runs after each resize (re-opening what a resize
 * closes, waiting for what a phone shows).
 * @param {string} screen
 * @param {() => Promise<void>} [prepare]
 */
async function search(screen, prepare) {
  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    await page.setViewportSize(viewport);
    if (prepare) await prepare();
    await page.getByTestId('loading').first().waitFor({ state: 'detached' });
    await settled(page);
    await Promise.all([...reading]);
    const server = [...serverTexts].filter((s) => s.length >= SERVER_TEXT_MIN_CHARS).sort((a, b) => b.length - a.length);
    const texts = await page.evaluate(visibleTexts);
    const already = new Set();
    for (const { text, where } of texts) {
      const rest = withoutServerText(text, server);
      if (rest === null) continue;
      for (const needle of NEEDLES) {
        if (!needle.pattern.test(rest)) continue;
        const id = `${needle.english}|${where}`;
        if (already.has(id)) continue;
        already.add(id);
        findings.push({ screen, width: viewport.width, key: needle.key, english: needle.english, where, text: text.slice(0, 160) });
      }
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

/** Opens a route and waits for its page. @param {string} route @param {string} testId */
async function open(route, testId) {
  await page.goto(`${server.baseUrl}/#${route}`);
  await page.getByTestId(testId).first().waitFor();
}

/** Opens a route and searches it. @param {string} route @param {string} testId */
async function walk(route, testId) {
  await open(route, testId);
  await search(route, async () => {
    await page.getByTestId(testId).first().waitFor();
  });
}

/** A call that must succeed. @param {string} apiPath @param {unknown} body @param {string} [token] */
async function must(apiPath, body, token = adminToken) {
  const answer = await server.api(apiPath, body, token);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  stringsOf(answer.body, serverTexts);
  return answer.body.data;
}

// ---------------------------------------------------------------------------------------------

before(async () => {
  NEEDLES = await needles();
  server = await startServer({ extraArgs: ['--casino-window-seconds', String(WINDOW_SECONDS), '--casino-card-ms', '200', '--casino-result-seconds', '2'] });
  adminToken = (await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' })).body.data.token;
  const demo2Token = (await server.api('user/login', { user_name: 'demo2', password: 'Demo@1234' })).body.data.token;
  demoToken = (await server.api('user/login', { user_name: 'demo', password: 'Demo@1234' })).body.data.token;
  // Something in every report: a settled bet (statement, P&L, Bet History) and a live one (Current Bets).
  const series = (await server.api('series/getSeries', { sport_id: 4, is_active: 1 }, adminToken)).body.data;
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  createdMatch = (await must('admin/match/create', { series_id: series[0].series_id, name: MATCH_NAME, open_date: openDate })).id;
  const done = await must('admin/market/create', { match_id: createdMatch, type: 'match_odds', name: 'Match Odds', runners: ['Herons', 'Kestrels'], bet_delay_s: 0, commission_bp: 500 });
  const live = await must('admin/market/create', { match_id: createdMatch, type: 'match_odds', name: 'Winner (live)', runners: ['Herons', 'Kestrels'], min_stake: 1, bet_delay_s: 0 });
  for (const market of [done.market_id, live.market_id]) await must('admin/market/status', { market_id: market, status: 'open' });
  await must('bet/placeBet', { market_id: done.market_id, selection_id: done.selection_ids[0], side: 'lay', price: 2.5, stake: 100, client_ref: 'e2e-hindi-lay' }, demo2Token);
  await must('bet/placeBet', { market_id: done.market_id, selection_id: done.selection_ids[0], side: 'back', price: 2.5, stake: 100, client_ref: 'e2e-hindi-back' }, demoToken);
  await must('admin/market/result', { market_id: done.market_id, winner_selection_id: done.selection_ids[0] });
  await must('bet/placeBet', { market_id: live.market_id, selection_id: live.selection_ids[1], side: 'back', price: 3, stake: 40, client_ref: 'e2e-hindi-live-back' }, demo2Token);
  await must('bet/placeBet', { market_id: live.market_id, selection_id: live.selection_ids[1], side: 'lay', price: 3, stake: 40, client_ref: 'e2e-hindi-live-lay' }, demoToken);
  // An unmatched bet too, for the open-bets list of the match.
  await must('bet/placeBet', { market_id: live.market_id, selection_id: live.selection_ids[0], side: 'back', price: 9, stake: 10, client_ref: 'e2e-hindi-unmatched' }, demoToken);

  browser = await launchBrowser();
  page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('response', (response) => {
    if (!response.url().includes('/api/') || !(response.headers()['content-type'] ?? '').startsWith('application/json')) return;
    const read = response
      .json()
      .then((body) => stringsOf(body, serverTexts))
      .catch(() => undefined);
    reading.add(read);
    void read.finally(() => reading.delete(read));
  });
  await logInAs(page, server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('in Hindi, no screen of the bettor’s app shows a text of the English catalogue', { timeout: 15 * 60_000 }, async () => {
  assert.ok(NEEDLES.length > 100, `the English catalogue gives ${NEEDLES.length} texts to look for`);
  const toggle = page.getByTestId('user-menu-toggle');

  // The switch, as a bettor finds it: the user menu, English marked, then हिन्दी.
  await toggle.click();
  assert.equal(await page.getByTestId('language-en').getAttribute('aria-checked'), 'true');
  await page.getByTestId('language-hi').click();
  assert.equal(await page.getByTestId('language-hi').getAttribute('aria-checked'), 'true');
  assert.equal(await page.evaluate(() => localStorage.getItem('language')), 'hi');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'hi');
  await search('user menu', async () => {
    if (!(await page.getByTestId('user-menu').isVisible())) await toggle.click();
  });
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 400);

  // Home and its In-Play block, then a sport; on a phone the side menu too.
  await walk('/', 'home-page');
  await walk('/home', 'home-page');
  await walk('/all-sports/4', 'all-sports-page');
  await walk('/all-sports/1', 'all-sports-page');
  await page.setViewportSize(VIEWPORTS.phone);
  await page.getByTestId('sidebar-toggle').click();
  await page.getByTestId('sidebar').getByTestId('sidebar-sport').first().click();
  await page.setViewportSize(VIEWPORTS.desktop);
  await search('side menu (All Sports open)');

  // The search box with results.
  await page.getByTestId('search-toggle').click();
  await page.getByTestId('search-input').fill('India');
  await page.getByTestId('search-results').waitFor();
  await page.getByTestId('search-group').first().waitFor();
  await search('search results', async () => {
    if (!(await page.getByTestId('search-results').isVisible())) await page.getByTestId('search-input').click();
  });

  // A match with its markets, then the bet slip after a tap on a price.
  const demoMatch = (await must('match/getMatches', { sport_id: 4, is_active: 1 }, demoToken)).find((/** @type {any} */ m) => /India v Australia/.test(m.match_name ?? m.name));
  assert.ok(demoMatch, 'the demo has India v Australia');
  await walk(`/game-details/4/${demoMatch.match_id}`, 'game-details-page');
  await walk(`/match/matchdetail/${demoMatch.match_id}`, 'game-details-page');
  // A price taps into the slip unless the ball is running just then: tap again until it opens.
  const slip = page.getByTestId('bet-slip').first();
  const opened = await pollUntil(
    async () => {
      await page.getByTestId('best-back').first().click({ timeout: 2_000 }).catch(() => undefined);
      return slip.isVisible();
    },
    (shown) => shown,
    { timeoutMs: 60_000, intervalMs: 1_000 },
  );
  assert.ok(opened, 'a tap on a price opens the bet slip');
  await page.getByTestId('slip-stake').first().fill('100');
  await search('bet slip', async () => {
    await page.getByTestId('bet-slip').first().waitFor();
  });
  // Placed, the bet's outcome (matched, waiting) or its refusal (the ball running, a price
  // moved) is said in Hindi: the server's own words are English, and the walk's search leaves
  // the server's strings out, so this is checked here.
  await page.getByTestId('place-bet').first().click();
  const said = page.getByTestId('bet-outcome').or(page.getByTestId('slip-error')).first();
  await said.waitFor();
  const words = (await said.innerText()).trim();
  assert.match(words, /[\u0900-\u097F]/, `the placement is said in Hindi: ${words}`);
  assert.doesNotMatch(words, /Bet (matched|placed|partly matched)|not placed|Insufficient|This market/, `no English of the server: ${words}`);
  // My own match: its open bets.
  await walk(`/game-details/4/${createdMatch}`, 'game-details-page');
  // My Market, from the header's exposure.
  await page.getByTestId('exposure-button').click();
  await page.getByTestId('my-market-modal').waitFor();
  await page.getByTestId('my-market-row').first().waitFor();
  await search('My Market');
  await page.getByTestId('my-market-modal').getByTestId('modal-close').click();

  // Racing: the meetings, then a race card.
  await walk('/horse-racing', 'horse-racing-page');
  /** @type {{ match_id: number, series_name: string, open_date: string }[]} */
  const races = await must('match/getMatches', { sport_id: 7, is_active: 1 }, demoToken);
  const race = races.find((r) => r.series_name === 'GB Racing') ?? races[0];
  const raceDay = new Date(Date.parse(race.open_date) + 330 * 60 * 1000).toISOString().slice(0, 10);
  await walk(`/horse-racing?sport_id=7&country=${race.series_name.slice(0, 2)}&date=${raceDay}`, 'horse-racing-page');
  await walk(`/horse-racing/${race.match_id}/${raceDay}`, 'race-page');
  await page.getByTestId('race-page').getByTestId('race-no-markets').or(page.getByTestId('race-page').getByTestId('market').first()).waitFor();
  await search('race card, markets shown');

  // The casino: the lobby, a table (and its slip), a settled round, the check of a round.
  await walk('/casino/list', 'casino-list-page');
  await walk('/casino/list/teenpatti', 'casino-list-page');
  await walk('/CM/MD/teen20', 'casino-table');
  await walk('/casino/match/dt6', 'casino-table');
  const roundLink = page.getByTestId('casino-last-results').locator('a[href*="/casino/round/"]').first();
  await roundLink.waitFor({ timeout: ROUND_WAIT_MS });
  await search('casino table with results');
  const roundHref = (await roundLink.getAttribute('href')) ?? '';
  await walk(roundHref.replace(/^#/, ''), 'casino-round-page');
  await walk('/casino/verify', 'casino-verify-page');
  await walk('/casino/mac88', 'world-casino-page');
  await walk('/world-casino', 'world-casino-page');
  await walk(`/casino/mac88/game?url=${encodeURIComponent('https://evil.example.test/game')}`, 'game-error');

  // Every report and account page, from the user menu's routes.
  for (const [route, id] of [
    ['/report/account-statement', 'account-statement-page'],
    ['/report/payment-withdraw', 'payment-statement-page'],
    ['/report/current-bet', 'current-bet-page'],
    ['/report/profit-loss', 'profit-loss-page'],
    ['/report/bet-history', 'bet-history-page'],
    ['/report/casino-result', 'casino-result-page'],
    ['/report/live-casino-bets', 'live-casino-bets-page'],
    ['/safer-gambling', 'safer-gambling-page'],
    ['/login-history', 'login-history-page'],
  ]) {
    await walk(route, id);
  }
  // The statement's settled line opens its bets; Current Bets' unmatched tab; P&L down a level.
  await open('/report/account-statement', 'account-statement-page');
  await page.getByTestId('statement-bets-link').first().click();
  await page.getByTestId('settled-bet').first().waitFor();
  await search('statement: the bets a line settled');
  await page.getByTestId('settled-bets-modal').getByTestId('modal-close').click();
  await open('/report/current-bet', 'current-bet-page');
  await page.locator('input[name="bet-status"]').nth(1).check();
  await search('current bets, unmatched');
  await open('/report/profit-loss', 'profit-loss-page');
  await page.getByTestId('pl-open').first().click();
  await page.getByTestId('pl-trail-all').waitFor();
  await search('profit & loss, one sport');

  // The account and settings pages, security auth, the rules page.
  await walk('/user', 'user-page');
  await walk('/setting/change-password', 'change-password-page');
  await page.getByTestId('cp-submit').click();
  await search('change password, its checks');
  await walk('/setting/d-w', 'deposit-withdraw-page');
  await page.getByTestId('dw-submit').click();
  await search('deposit, its checks');
  await page.getByTestId('withdraw-tab').click();
  await page.getByTestId('wd-submit').click();
  await search('withdraw, its checks');
  await walk('/setting/button-values', 'button-values-page');
  await walk('/security-auth', 'security-auth-page');
  await page.getByTestId('security-setup').click();
  await page.getByTestId('security-qr').waitFor();
  await search('security auth, set up');
  await walk('/page/rules', 'rules-page');
  await walk('/no-such-page', 'not-found');

  // The pop-ups the header and the user menu open.
  await open('/', 'home-page');
  for (const [item, modal] of [
    ['menu-button-values', 'button-values-modal'],
    ['menu-change-password', 'change-password-modal'],
    ['menu-rules', 'rules-modal'],
  ]) {
    await toggle.click();
    await page.getByTestId(item).click();
    await page.getByTestId(modal).waitFor();
    await search(`${item} pop-up`);
    await page.getByTestId(modal).getByTestId('modal-close').click();
  }
  await open(`/game-details/4/${demoMatch.match_id}`, 'game-details-page');
  await page.getByTestId('rules-link').click();
  await page.getByTestId('rules-modal').waitFor();
  await search('rules pop-up from a match');
  await page.getByTestId('rules-modal').getByTestId('modal-close').click();

  // Out and in again: the log-in and sign-up pages stay in Hindi, and so does the welcome pop-up.
  await toggle.click();
  await page.getByTestId('logout').click();
  await page.getByTestId('login-submit').waitFor();
  assert.equal(await page.getByTestId('language-hi').getAttribute('aria-pressed'), 'true');
  await page.getByTestId('login-submit').click();
  await search('log-in page, its checks');
  await page.getByTestId('to-sign-up').click();
  await page.getByTestId('signup-form').waitFor();
  await page.getByTestId('signup-submit').click();
  await search('sign-up page, its checks');
  await page.goto(`${server.baseUrl}/#/login`);
  await page.reload();
  await page.getByTestId('login-submit').waitFor();
  await logIn(page, 'demo', 'Demo@1234');
  await page.getByTestId('welcome-popup').waitFor();
  await search('welcome pop-up');

  const report = findings.map((f) => `  ${f.screen} @${f.width}: "${f.english}" (${f.key}) — ${f.where}: "${f.text}"`);
  assert.deepEqual(report, [], `English catalogue texts on screen in Hindi:\n${report.join('\n')}`);
  assert.deepEqual(pageErrors, []);
});
