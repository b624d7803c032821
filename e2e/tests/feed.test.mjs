// @ts-check
// A match from an upstream feed, as a bettor follows it: the server plays a recorded Exchange
// Stream at its own pace (`--feed … --feed-speed 1`): a match-odds market of Karachi Kings v
// Multan Sultans whose ladder moves twice, 30 s and 40 s in, beside betfairlightweight's
// recorded cricket score of that match (80/2 after 12.5 overs, then 81/2 after 13). The
// bettor's match page shows the house's offers at the upstream's prices and sizes, follows both
// moves without a reload, and shows the score as it comes. The operator's Feeds page then shows
// the recording played to its end and which upstream market is which market here.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freshPage, launchBrowser, logIn, logInAs, newPage, pollUntil, startServer } from '../harness.mjs';
import { assertFitsEveryViewport } from '../viewport.mjs';

const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
const SCORES = path.resolve(E2E_DIR, '../../tests/feeds/betfairlightweight/CRICKET-1.179676557');
/** The market's first message: 6.3 s before the score's first. */
const START_PT = 1643299030000;
/** How long the page may take to show what the recording reaches 40 s in. */
const MOVE_WAIT = { timeoutMs: 60_000 };
const SHOWN_WAIT = { timeout: 60_000 };

/** The market's lines: its definition and ladder, then two moves of Karachi Kings' prices. */
function marketRecording() {
  const definition = {
    eventTypeId: '4', eventId: '30610310', eventName: 'Karachi Kings v Multan Sultans', marketType: 'MATCH_ODDS',
    status: 'OPEN', inPlay: true, betDelay: 0, numberOfWinners: 1,
    runners: [
      { id: 1, sortPriority: 1, status: 'ACTIVE', name: 'Karachi Kings' },
      { id: 2, sortPriority: 2, status: 'ACTIVE', name: 'Multan Sultans' },
    ],
  };
  const change = (/** @type {number} */ pt, /** @type {object} */ market) =>
    JSON.stringify({ op: 'mcm', clk: String(pt), pt, mc: [{ id: '1.179676557', ...market }] });
  return [
    change(START_PT, {
      img: true, marketDefinition: definition,
      rc: [{ id: 1, atb: [[1.8, 100]], atl: [[1.85, 80]] }, { id: 2, atb: [[2.2, 60]], atl: [[2.26, 50]] }],
    }),
    change(START_PT + 30_000, { rc: [{ id: 1, atb: [[1.8, 0], [1.75, 120]], atl: [[1.85, 0], [1.79, 90]] }] }),
    change(START_PT + 40_000, { rc: [{ id: 1, atb: [[1.75, 0], [1.7, 150]], atl: [[1.79, 0], [1.74, 70]] }] }),
  ].join('\n') + '\n';
}

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
const pageErrors = [];
const ids = { match: 0, market: 0, kings: 0 };

before(async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'backlay-e2e-feed-'));
  const market = path.join(dir, '1.179676557');
  await writeFile(market, marketRecording());
  server = await startServer({
    extraArgs: ['--no-demo-feed', '--no-casino', '--feed', `betfair-file:${market},betfair-file:${SCORES}`, '--feed-speed', '1'],
  });
  const admin = (await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' })).body.data.token;
  // The feed's figures are a GET (the harness's `api` posts).
  const feedStatus = async () => {
    const answer = await fetch(`${server.baseUrl}/api/admin/feed/status`, { headers: { Authorization: `Bearer ${admin}` } });
    assert.equal(answer.status, 200);
    return (await answer.json()).data.feeds[0];
  };
  const feed = await pollUntil(
    feedStatus,
    (status) => status?.markets?.length === 1,
    { timeoutMs: 15_000 },
  );
  ids.match = feed.markets[0].match_id;
  ids.market = feed.markets[0].market_id;
  ids.kings = feed.markets[0].runners.find((/** @type {{name: string}} */ r) => r.name === 'Karachi Kings').selection_id;

  browser = await launchBrowser();
  page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await logInAs(page, server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a match from the feed: the upstream prices on the page, moving, and its score', async () => {
  await page.goto(`${server.baseUrl}/#/game-details/4/${ids.match}`);
  await page.getByTestId('match-title').filter({ hasText: 'Karachi Kings v Multan Sultans' }).waitFor();
  const kings = page.locator(`[data-testid="market"][data-market-id="${ids.market}"] [data-testid="runner"][data-selection-id="${ids.kings}"]`);
  const bestBack = kings.getByTestId('best-back');
  await bestBack.waitFor();
  const read = async () => (await bestBack.innerText()).replace(/\s+/g, ' ').trim();
  // The house's lay at the upstream's best back, at its size; the page opened before the
  // first move (30 s into the recording).
  const first = await read();
  assert.match(first, /^1\.8 100(\.00)?$/, `the upstream's best back and its size: ${first}`);

  // The score as the feed gives it, then the next ball's.
  const strip = page.getByTestId('score-strip');
  await strip.getByTestId('score-runs').filter({ hasText: /^80\/2|^81\/2/ }).waitFor(SHOWN_WAIT);
  await strip.getByTestId('score-runs').filter({ hasText: '81/2' }).waitFor(SHOWN_WAIT);

  // Both moves, without a reload.
  assert.match(await pollUntil(read, (text) => text.startsWith('1.75'), MOVE_WAIT), /^1\.75 120(\.00)?$/);
  assert.match(await pollUntil(read, (text) => text.startsWith('1.7 '), MOVE_WAIT), /^1\.7 150(\.00)?$/);
  assert.deepEqual(pageErrors, []);
});

test("the operator's Feeds page: the recording played, its market here, no stream to add", async () => {
  // The bettor's session gives way to the operator's (the browser's pages share one).
  const { page: operatorPage, errors } = await freshPage(browser, server.baseUrl);
  await logIn(operatorPage, 'admin', 'Admin@1234');
  await operatorPage.waitForURL(/#\/console\//);
  await operatorPage.goto(`${server.baseUrl}/#/console/feeds`);
  const row = operatorPage.getByTestId('feed-0');
  await row.getByTestId('feed-state').filter({ hasText: 'finished' }).waitFor(SHOWN_WAIT);
  const market = row.getByTestId('feed-market-1.179676557');
  assert.match(await market.innerText(), new RegExp(`Market ${ids.market}`));
  assert.match(await market.innerText(), /Karachi Kings/);
  assert.equal(await row.getByRole('button').count(), 0, 'a finished feed is not steered');
  // Started without stream access: the form says so instead of taking a stream.
  await operatorPage.getByTestId('feed-cannot-add').filter({ hasText: 'no stream access' }).waitFor();
  assert.equal(await operatorPage.getByTestId('feed-add-submit').isDisabled(), true);
  await assertFitsEveryViewport(operatorPage, 'console-feeds');
  assert.deepEqual(errors, []);
});
