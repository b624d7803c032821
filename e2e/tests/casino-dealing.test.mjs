// @ts-check
// A casino round as a player watches it, on Dragon Tiger, Teen Patti T20 and Andar Bahar at once,
// each on a laptop (1280×800) and a phone (390×844): bets on every side of the round, then the
// close (no "Betting closed 0 s"), the cards turning up one at a time in their seats, the result
// held with the winner's seat marked and "You won ₹…" for exactly what the winning bets returned,
// and the next round after the hold. Each page keeps a log of what it showed (a MutationObserver
// in the page), so the checks see every card as it came, not just a poll's snapshots.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, logInAs, newPage, startServer } from '../harness.mjs';
import { rupees } from '../rupees.mjs';
import { VIEWPORTS, assertFitsViewport } from '../viewport.mjs';

const WINDOW_SECONDS = 6;
/** The server's pace: a card every 1.2 s (a whole deal at most 9 s), the result held 10 s. */
const RESULT_HOLD_MS = 10_000;
/** Waiting for a round to open, run, deal and be held: window + deal + hold, with room to spare. */
const ROUND_WAIT = { timeout: (WINDOW_SECONDS + 9 + 10 + 15) * 1000 };
/** Stake on each side of the round, in rupees. */
const STAKE = 10;

/** Every side of each game's round, so one of the bets wins (or, on a tie, pushes). */
const GAMES = [
  { code: 'dt6', name: 'Dragon Tiger', markets: ['dragon', 'tiger', 'tie'] },
  { code: 'teen20', name: 'Teen Patti T20', markets: ['player-a', 'player-b'] },
  { code: 'ab20', name: 'Andar Bahar', markets: ['andar', 'bahar'] },
];

/** @type {import('../harness.mjs').Server} */
let server;
/**
 * A browser per screen size: a browser opens at most six connections to one server (HTTP/1.1),
 * and each table page holds one open for its live stream, so six tables in one browser would
 * leave no connection for their requests.
 * @type {Map<number, import('../harness.mjs').Browser>}
 */
const browsers = new Map();
/** @type {string[]} */
const pageErrors = [];
let token = '';

before(async () => {
  server = await startServer({ extraArgs: ['--no-demo-feed', '--casino-window-seconds', String(WINDOW_SECONDS)] });
  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    const browser = await launchBrowser();
    browsers.set(viewport.width, browser);
    // A browser's pages share its storage, so one log-in serves them all.
    const login = await newPage(browser);
    token = await logInAs(login, server.baseUrl);
    assert.ok(token, 'the session token is stored');
    await login.close();
  }
});

after(async () => {
  for (const browser of browsers.values()) await browser.close();
  await server?.stop();
});

/**
 * @typedef {object} Shown  one change on the table page, as the page's log has it
 * @property {number} at      ms since the log started (the page's clock)
 * @property {string} round   the round id shown
 * @property {string} status  the status badge
 * @property {string} clock   the clock's words
 * @property {number} cards   cards dealt and face up on the felt
 * @property {string} winner  the winner line ('' when none)
 * @property {string} won     the "You won" line ('' when none)
 */

/**
 * Starts the page's log of what its table shows: an entry each time the page changes.
 * @param {import('playwright-core').Page} page
 */
async function startLog(page) {
  await page.evaluate(() => {
    const started = performance.now();
    /** @type {any[]} */
    const log = [];
    const text = (/** @type {string} */ id) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? '';
    const record = () => {
      /** @type {Record<string, string | number>} */
      const entry = {
        at: Math.round(performance.now() - started),
        round: text('casino-round-id'),
        status: text('casino-status'),
        clock: document.querySelector('.casino-countdown-box')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
        cards: document.querySelectorAll('[data-testid="casino-dealt-card"]').length,
        winner: text('casino-winner'),
        won: text('casino-you-won'),
      };
      const last = log[log.length - 1];
      if (!last || ['round', 'status', 'clock', 'cards', 'winner', 'won'].some((k) => last[k] !== entry[k])) log.push(entry);
    };
    record();
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    /** @type {any} */ (window).tableLog = log;
  });
}

/** @param {import('playwright-core').Page} page @returns {Promise<Shown[]>} */
const readLog = (page) => page.evaluate(() => /** @type {any} */ (window).tableLog);

/**
 * Waits for `round` to have been held and the next round to open on this page; answers the log.
 * @param {import('playwright-core').Page} page @param {string} round
 */
async function watchUntilNextRound(page, round) {
  await page
    .waitForFunction(
    (id) => {
      const log = /** @type {any} */ (window).tableLog;
      return log.some((/** @type {any} */ e) => e.round === id && e.winner) && log[log.length - 1].round !== id;
    },
    round,
    ROUND_WAIT,
    )
    .catch(async (error) => {
      throw new Error(`${page.url()} never showed round ${round} through to the next; it showed ${JSON.stringify(await readLog(page))}`, { cause: error });
    });
  return readLog(page);
}

/**
 * One game watched on two screens: bets on every side, then the close, the deal, the result
 * held and the next round, checked from each page's log.
 * @param {(typeof GAMES)[number]} game
 */
async function watchOneRound(game) {
  const pages = [];
  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    const page = await newPage(/** @type {import('../harness.mjs').Browser} */ (browsers.get(viewport.width)));
    page.on('pageerror', (error) => pageErrors.push(`${game.code}: ${error.message}`));
    await page.setViewportSize(viewport);
    await page.goto(`${server.baseUrl}/#/casino/match/${game.code}`);
    await page.getByTestId('casino-table').waitFor();
    pages.push({ page, width: viewport.width });
  }
  // A round with at least 3 s to bet in (the bets go through the API in milliseconds).
  const [desktop] = pages;
  await desktop.page.waitForFunction(
    () => /betting/i.test(document.querySelector('[data-testid="casino-status"]')?.textContent ?? '') && Number(document.querySelector('[data-testid="casino-countdown"]')?.textContent ?? '0') >= 3,
    undefined,
    ROUND_WAIT,
  );
  const table = await server.api('casino/roundState', { game_code: game.code }, token);
  assert.equal(table.status, 200, JSON.stringify(table.body));
  const round = table.body.data.round_id;
  for (const page of pages) await startLog(page.page);
  for (const code of game.markets) {
    const market = table.body.data.markets.find((/** @type {{code: string}} */ m) => m.code === code);
    assert.ok(market, `${game.code} posts ${code}`);
    const bet = await server.api('casino/placeBet', { round_id: round, market: code, odds: market.odds, stake: String(STAKE) }, token);
    assert.equal(bet.status, 200, `${game.code} ${code}: ${JSON.stringify(bet.body)}`);
  }

  // Screenshots (and the fit check) while the cards are being dealt and once the result shows.
  const shots = pages.map(async ({ page, width }) => {
    await page.getByTestId('casino-dealt-card').first().waitFor(ROUND_WAIT);
    await assertFitsViewport(page, `casino-dealing-${game.code}-${width}`);
    await page.getByTestId('casino-winner').waitFor(ROUND_WAIT);
    await assertFitsViewport(page, `casino-result-${game.code}-${width}`);
  });
  const logs = await Promise.all(pages.map(({ page }) => watchUntilNextRound(page, round)));
  await Promise.all(shots);

  // What the bets returned, by the server's books.
  const settled = await server.api('casino/round', { round_id: round }, token);
  assert.equal(settled.body.data.phase, 'settled', JSON.stringify(settled.body));
  const history = await server.api('report/accountStatement', { type: 'casino', page: 1, limit: 100 }, token);
  const credits = history.body.data.rows
    .filter((/** @type {{description: string}} */ row) => row.description.includes(round) && row.description.startsWith('Casino win'))
    .reduce((/** @type {number} */ sum, /** @type {{credit: number}} */ row) => sum + Math.round(Number(row.credit) * 100), 0);
  assert.equal(history.status, 200, JSON.stringify(history.body));

  for (const [i, log] of logs.entries()) {
    /** @type {string} */
    const label = `${game.code} at ${pages[i].width}px`;
    const ofRound = log.filter((e) => e.round === round);
    // Never "Betting closed 0 s": after the close the clock says what is happening instead.
    for (const entry of ofRound) {
      assert.doesNotMatch(entry.clock, /Betting closed/i, `${label}: ${JSON.stringify(entry)}`);
      if (!/betting/i.test(entry.status)) assert.doesNotMatch(entry.clock, /\b0 s$/, `${label}: ${JSON.stringify(entry)}`);
    }
    // The deal: the cards turn up one at a time, every count from the first card to the last,
    // over more than a second, before any winner is shown.
    const dealing = ofRound.filter((e) => /dealing/i.test(e.status));
    assert.ok(dealing.length > 0, `${label} showed a dealing phase: ${JSON.stringify(ofRound)}`);
    assert.ok(dealing.every((e) => e.winner === ''), `${label}: a winner during the deal`);
    assert.ok(dealing.every((e) => /Dealing/.test(e.clock)), `${label}: ${JSON.stringify(dealing)}`);
    const counts = [...new Set(dealing.map((e) => e.cards))].filter((n) => n > 0);
    const most = Math.max(...counts);
    assert.ok(most >= 2, `${label}: ${JSON.stringify(counts)}`);
    for (let n = counts[0]; n <= most; n += 1) assert.ok(counts.includes(n), `${label}: card ${n} never showed alone: ${JSON.stringify(counts)}`);
    const firstCard = dealing.find((e) => e.cards > 0);
    const lastCard = dealing.find((e) => e.cards === most);
    assert.ok(firstCard && lastCard && lastCard.at - firstCard.at >= 500, `${label}: the cards came at once: ${JSON.stringify(dealing)}`);

    // The result: the winner the server settled, held about 10 s with the next round's
    // countdown, and "You won ₹…" with exactly what the winning bets returned.
    const results = ofRound.filter((e) => e.winner !== '');
    assert.ok(results.length > 0, `${label} showed the result`);
    assert.equal(results[0].winner, `Winner: ${settled.body.data.winner}`, label);
    assert.ok(results.every((e) => /result/i.test(e.status)), `${label}: ${JSON.stringify(results)}`);
    assert.ok(results.some((e) => /^Next round in \d+ s$/.test(e.clock)), `${label}: ${JSON.stringify(results)}`);
    const nextRound = log.find((e) => e.at > results[0].at && e.round !== round);
    assert.ok(nextRound, `${label}: no next round`);
    const heldMs = nextRound.at - results[0].at;
    assert.ok(heldMs >= RESULT_HOLD_MS - 2_000, `${label}: the result stayed ${heldMs} ms`);
    const wonText = results[results.length - 1].won;
    if (credits > 0) assert.equal(wonText, `You won ${rupees(credits, 'minor')}`, label);
    else assert.equal(wonText, '', `${label}: nothing won (a tie pushed), nothing claimed`);
  }
  for (const { page } of pages) await page.close();
  return settled.body.data.winner;
}

test('Dragon Tiger, Teen Patti and Andar Bahar deal card by card, hold the result and show what a winning bet won, at 1280×800 and 390×844', async () => {
  const winners = await Promise.all(GAMES.map(watchOneRound));
  assert.equal(winners.length, 3);
  assert.deepEqual(pageErrors, []);
});
