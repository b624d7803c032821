// @ts-check
// Following a cricket match by its score: the operator (admin/match/score, as a feed would)
// sets the score of an in-play match and the bettor's open match page shows it without a
// reload, at 1280×800 and 390×844 and fitting both; then the result is declared and the match
// settled, and the page shows the result banner while the match leaves the home list.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, logInAs, newPage, pollUntil, startServer } from '../harness.mjs';
import { assertFitsEveryViewport } from '../viewport.mjs';

const MATCH_NAME = 'Kings v Royals';
const RESULT = 'Kings won by 12 runs';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
const pageErrors = [];
let adminToken = '';
const ids = { match: 0, matchOdds: 0, kings: 0 };

/** An admin call that must succeed. @param {string} apiPath @param {unknown} body */
async function operator(apiPath, body) {
  const answer = await server.api(apiPath, body, adminToken);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** The score after `balls` legal balls of the chase, as a feed sends it. @param {number} runs @param {number} balls @param {string[]} lastBalls */
function chase(runs, balls, lastBalls) {
  return {
    sport: 'cricket',
    overs_limit: 20,
    innings: [
      { side: 'Kings', runs: 150, wickets: 7, overs: 20, balls: 0 },
      { side: 'Royals', runs, wickets: 2, overs: Math.floor(balls / 6), balls: balls % 6 },
    ],
    last_balls: lastBalls,
  };
}

const matchRow = () => page.locator(`[data-testid="match-row"][data-match-id="${ids.match}"]`);

before(async () => {
  server = await startServer();
  adminToken = (await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' })).body.data.token;
  const series = (await server.api('series/getSeries', { sport_id: 4, is_active: 1 }, adminToken)).body.data;
  const openDate = new Date(Date.now() - 60 * 60 * 1000).toISOString();
  ids.match = (await operator('admin/match/create', { series_id: series[0].series_id, name: MATCH_NAME, open_date: openDate, in_play: 1 })).id;
  const matchOdds = await operator('admin/market/create', { match_id: ids.match, type: 'match_odds', name: 'Match Odds', runners: ['Kings', 'Royals'], bet_delay_s: 0 });
  ids.matchOdds = matchOdds.market_id;
  ids.kings = matchOdds.selection_ids[0];
  await operator('admin/market/status', { market_id: ids.matchOdds, status: 'open' });
  await operator('admin/match/inPlay', { match_id: ids.match, in_play: 1 });

  browser = await launchBrowser();
  page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await logInAs(page, server.baseUrl);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the in-play match page shows the score the operator sets, live, on both screens', async () => {
  await operator('admin/match/score', { match_id: ids.match, score: chase(45, 30, ['1', '4', 'W', '0', '6', '.']) });
  await matchRow().waitFor();
  await matchRow().getByTestId('in-play').waitFor();
  await matchRow().getByTestId('score-line').filter({ hasText: 'Royals 45/2 (5.0)' }).waitFor();
  // The in-play row's score line fits the phone too.
  await assertFitsEveryViewport(page, 'live-score-home');
  await matchRow().locator('a.match-link').click();
  await page.getByTestId('match-title').filter({ hasText: MATCH_NAME }).waitFor();
  await page.getByTestId('match-status').filter({ hasText: 'In-Play' }).waitFor();
  assert.equal(await page.getByTestId('match-date').count(), 0, 'an in-play match shows In-Play, not its start time');
  // The stream is connected, and a connected stream is not announced as "Live".
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor({ state: 'attached' });
  assert.equal(await page.getByText('Live', { exact: true }).count(), 0);
  const strip = page.getByTestId('score-strip');
  await strip.getByTestId('score-runs').filter({ hasText: '45/2' }).waitFor();
  assert.equal(await strip.getByTestId('score-crr').innerText(), 'CRR 9.00');
  assert.equal(await strip.getByTestId('score-rrr').innerText(), 'RRR 7.07');
  assert.match(await strip.getByTestId('score-target').innerText(), /Target 151 · need 106 from 90 balls/);
  assert.deepEqual(await strip.getByTestId('score-balls').locator('li').allInnerTexts(), ['1', '4', 'W', '0', '6', '.']);

  // The next ball goes for four: the page follows without a reload.
  await operator('admin/match/score', { match_id: ids.match, score: chase(49, 31, ['4', 'W', '0', '6', '.', '4']) });
  await strip.getByTestId('score-runs').filter({ hasText: '49/2' }).waitFor();
  await strip.getByTestId('score-overs').filter({ hasText: '5.1/20' }).waitFor();
  await assertFitsEveryViewport(page, 'live-score-in-play');
});

test('the result is declared and the match settled: a result banner, and the match leaves the home list', async () => {
  await operator('admin/match/score', { match_id: ids.match, result: RESULT });
  await page.getByTestId('result-banner').filter({ hasText: RESULT }).waitFor();
  await page.getByTestId('match-status').filter({ hasText: 'Finished' }).waitFor();
  await operator('admin/market/result', { market_id: ids.matchOdds, winner_selection_id: ids.kings });
  await assertFitsEveryViewport(page, 'live-score-result');

  await page.goto(`${server.baseUrl}/#/`);
  // The home list is there (other demo matches) and no longer lists the settled match.
  await page.getByTestId('match-row').first().waitFor();
  const rows = await pollUntil(() => matchRow().count(), (count) => count === 0, { timeoutMs: 15_000 });
  assert.equal(rows, 0);
  // Reached directly, the page still tells how the match ended.
  await page.goto(`${server.baseUrl}/#/game-details/4/${ids.match}`);
  await page.getByTestId('result-banner').filter({ hasText: RESULT }).waitFor();
  assert.deepEqual(pageErrors, []);
});
