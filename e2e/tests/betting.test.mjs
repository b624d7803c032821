// @ts-check
// Betting journeys against the real server: two bettors in two browsers trade with each
// other, an unmatched bet is cancelled, fancy and bookmaker bets are placed, the operator's
// ball-running stop refuses a bet (and the slip keeps saying so after the market reopens), a
// race card shows its runners' cards and the time to the off, and a declared result lands in
// balances and statements.
//
// The demo's market-maker keeps liquidity on the demo markets, so prices there are not ours
// to choose. The operator (admin API) makes a fresh match with its own match-odds, bookmaker
// and fancy markets for these journeys; the tests run in order and build on each other.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, newPage, shoot, startServer } from '../harness.mjs';
import { exactly, rupees } from '../rupees.mjs';

const MATCH_NAME = 'Lions v Tigers';
/** Waits that span the 5 s balance poll. */
const POLL_WAIT = { timeout: 15_000 };

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browserA;
/** @type {import('../harness.mjs').Browser} */
let browserB;
/** @type {import('playwright-core').Page} */
let pageA;
/** @type {import('playwright-core').Page} */
let pageB;
/** @type {string[]} */
const pageErrors = [];
let adminToken = '';
/** Ids of the operator's fresh match and markets. */
const ids = { match: 0, matchOdds: 0, bookmaker: 0, fancy: 0, lions: 0, tigers: 0, bmLions: 0 };

/** An admin call that must succeed. @param {string} apiPath @param {unknown} body */
async function operator(apiPath, body) {
  const answer = await server.api(apiPath, body, adminToken);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** A logged-in tab in its own browser. @param {import('../harness.mjs').Browser} browser @param {string} userName */
async function loggedIn(browser, userName) {
  const page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(`${userName}: ${error.message}`));
  await page.goto(`${server.baseUrl}/#/login`);
  await page.getByTestId('login-user-name').fill(userName);
  await page.getByTestId('login-password').fill('Demo@1234');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  await page.getByTestId('balance').filter({ hasText: /\d+\.\d{2}/ }).waitFor();
  return page;
}

/**
 * Waits until the header shows this balance and exposure.
 * @param {import('playwright-core').Page} page @param {string} balance @param {string} exposure
 */
async function headerShows(page, balance, exposure) {
  await page.getByTestId('balance').filter({ hasText: exactly(balance) }).waitFor(POLL_WAIT);
  await page.getByTestId('exposure').filter({ hasText: exactly(exposure) }).waitFor(POLL_WAIT);
}

/** @param {import('playwright-core').Page} page @param {number} marketId @param {number} selectionId */
const runner = (page, marketId, selectionId) =>
  page.locator(`[data-testid="market"][data-market-id="${marketId}"] [data-testid="runner"][data-selection-id="${selectionId}"]`);

/** Fills the open slip and places it; returns the outcome text. @param {import('playwright-core').Page} page @param {string} stake */
async function place(page, stake) {
  await page.getByTestId('slip-stake').fill(stake);
  await page.getByTestId('place-bet').click();
  const outcome = page.getByTestId('bet-outcome');
  await outcome.waitFor();
  return outcome.innerText();
}

before(async () => {
  server = await startServer();
  adminToken = (await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' })).body.data.token;
  const series = (await server.api('series/getSeries', { sport_id: 4, is_active: 1 }, adminToken)).body.data;
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  ids.match = (await operator('admin/match/create', { series_id: series[0].series_id, name: MATCH_NAME, open_date: openDate })).id;
  const matchOdds = await operator('admin/market/create', { match_id: ids.match, type: 'match_odds', name: 'Match Odds', runners: ['Lions', 'Tigers'], bet_delay_s: 0 });
  [ids.lions, ids.tigers] = matchOdds.selection_ids;
  ids.matchOdds = matchOdds.market_id;
  const bookmaker = await operator('admin/market/create', { match_id: ids.match, type: 'bookmaker', name: 'Bookmaker', runners: ['Lions', 'Tigers'] });
  ids.bookmaker = bookmaker.market_id;
  ids.bmLions = bookmaker.selection_ids[0];
  await operator('admin/market/rates', {
    market_id: ids.bookmaker,
    runners: [
      { selection_id: bookmaker.selection_ids[0], back: 40, lay: 42 },
      { selection_id: bookmaker.selection_ids[1], back: 150, lay: 155 },
    ],
  });
  ids.fancy = (await operator('admin/market/create', { match_id: ids.match, type: 'fancy', name: '6 over runs Lions' })).market_id;
  await operator('admin/market/rates', { market_id: ids.fancy, line_no: 48, rate_no: 100, line_yes: 49, rate_yes: 100 });
  for (const market of [ids.matchOdds, ids.bookmaker, ids.fancy]) {
    await operator('admin/market/status', { market_id: market, status: 'open' });
  }
  browserA = await launchBrowser();
  browserB = await launchBrowser();
  pageA = await loggedIn(browserA, 'demo');
  pageB = await loggedIn(browserB, 'demo2');
});

after(async () => {
  await browserA?.close();
  await browserB?.close();
  await server?.stop();
});

test('one bettor backs, the other lays at the same price: both see it without reloading', async () => {
  // Both find the match on the home page, with its bookmaker and fancy badges.
  for (const page of [pageA, pageB]) {
    const row = page.locator(`[data-testid="match-row"][data-match-id="${ids.match}"]`);
    await row.waitFor();
    await row.getByTestId('badge-bookmaker').waitFor();
    await row.getByTestId('badge-fancy').waitFor();
  }
  await shoot(pageA, 'betting-home');
  await headerShows(pageA, '100000.00', '0.00');
  await headerShows(pageB, '50000.00', '0.00');

  // demo backs Lions at 2.50 for 100: nobody offers it yet, so it waits.
  await pageA.locator(`[data-testid="match-row"][data-match-id="${ids.match}"] a.match-link`).click();
  await pageA.getByTestId('match-title').filter({ hasText: MATCH_NAME }).waitFor();
  // The stream is connected (the page says nothing about it then: only "Reconnecting…" when down).
  await pageA.locator('[data-testid="connection"][data-state="live"]').waitFor({ state: 'attached' });
  await runner(pageA, ids.matchOdds, ids.lions).getByTestId('best-back').click();
  await pageA.getByTestId('slip-odds').fill('2.48');
  await pageA.getByTestId('odds-up').click();
  assert.equal(await pageA.getByTestId('slip-odds').inputValue(), '2.50');
  await pageA.getByTestId('slip-stake').fill('100');
  assert.equal(await pageA.getByTestId('slip-profit').innerText(), rupees('150.00'));
  assert.equal(await pageA.getByTestId('slip-liability').innerText(), rupees('100.00'));
  // The projected P&L per runner follows the stake.
  await runner(pageA, ids.matchOdds, ids.lions).getByTestId('runner-projection').filter({ hasText: rupees('150.00') }).waitFor();
  await runner(pageA, ids.matchOdds, ids.tigers).getByTestId('runner-projection').filter({ hasText: rupees('-100.00') }).waitFor();
  await shoot(pageA, 'betting-slip');
  assert.match(await place(pageA, '100'), /waiting to be matched/);
  await headerShows(pageA, '100000.00', '100.00');
  await pageA.getByTestId('open-bets-unmatched-tab').filter({ hasText: 'Unmatched (1)' }).waitFor();

  // demo2 sees demo's offer in the Lay column (pushed live) and lays it.
  await pageB.goto(`${server.baseUrl}/#/game-details/4/${ids.match}`);
  const bestLay = runner(pageB, ids.matchOdds, ids.lions).getByTestId('best-lay');
  await bestLay.filter({ hasText: '2.5' }).waitFor();
  assert.match(await bestLay.innerText(), /2\.5\s+100/);
  await bestLay.click();
  assert.equal(await pageB.getByTestId('slip-odds').inputValue(), '2.50');
  await pageB.getByTestId('slip-stake').fill('100');
  assert.equal(await pageB.getByTestId('slip-liability').innerText(), rupees('150.00'));
  assert.match(await place(pageB, '100'), /Bet matched/);
  await headerShows(pageB, '50000.00', '150.00');
  await runner(pageB, ids.matchOdds, ids.lions).getByTestId('runner-position').filter({ hasText: rupees('-150.00') }).waitFor();
  await pageB.getByTestId('open-bet-matched').first().waitFor();
  await shoot(pageB, 'betting-matched-layer');

  // demo's page follows without a reload: the bet is matched, the positions are there.
  await pageA.getByTestId('open-bets-unmatched-tab').filter({ hasText: 'Unmatched (0)' }).waitFor(POLL_WAIT);
  await pageA.getByTestId('open-bets-matched-tab').filter({ hasText: 'Matched (1)' }).waitFor();
  await runner(pageA, ids.matchOdds, ids.lions).getByTestId('runner-position').filter({ hasText: rupees('150.00') }).waitFor();
  await runner(pageA, ids.matchOdds, ids.tigers).getByTestId('runner-position').filter({ hasText: rupees('-100.00') }).waitFor();
  await headerShows(pageA, '100000.00', '100.00');
  await shoot(pageA, 'betting-matched-backer');
  assert.deepEqual(pageErrors, []);
});

test('an unmatched bet is cancelled from open bets', async () => {
  // Laying Tigers at 5.0 for 100 risks 400 more if Tigers win: exposure 100 → 500.
  await runner(pageA, ids.matchOdds, ids.tigers).getByTestId('best-lay').click();
  await pageA.getByTestId('slip-odds').fill('5');
  assert.match(await place(pageA, '100'), /waiting to be matched/);
  await headerShows(pageA, '100000.00', '500.00');
  await pageA.getByTestId('open-bets-unmatched-tab').click();
  const bet = pageA.getByTestId('open-bet-unmatched');
  await bet.waitFor();
  assert.match(await bet.innerText(), /Tigers · Match Odds[\s\S]*Lay 5\.00[\s\S]*Unmatched ₹100\.00 of ₹100\.00/);
  await shoot(pageA, 'betting-unmatched');
  await bet.getByTestId('cancel-bet').click();
  await bet.waitFor({ state: 'detached' });
  await pageA.getByTestId('open-bets-unmatched-tab').filter({ hasText: 'Unmatched (0)' }).waitFor();
  await headerShows(pageA, '100000.00', '100.00');
  assert.deepEqual(pageErrors, []);
});

test('a fancy Yes and a bookmaker bet are placed', async () => {
  const row = pageA.locator(`[data-testid="fancy-row"][data-market-id="${ids.fancy}"]`);
  await row.getByTestId('fancy-yes').click();
  assert.equal(await pageA.getByTestId('slip-rate').innerText(), '49 / 100');
  await pageA.getByTestId('slip-stake').fill('100');
  assert.equal(await pageA.getByTestId('slip-profit').innerText(), rupees('100.00'));
  assert.match(await place(pageA, '100'), /Bet matched/);
  // Exposure: match odds 100 + fancy 100.
  await headerShows(pageA, '100000.00', '200.00');
  await row.getByTestId('fancy-book-button').click();
  const book = pageA.getByTestId('fancy-book-modal');
  const ranges = await book.getByTestId('fancy-book-row').allInnerTexts();
  assert.deepEqual(ranges.map((r) => r.replace(/\s+/g, ' ').trim()), ['0–48 -₹100.00', '49 and above ₹100.00']);
  await shoot(pageA, 'betting-fancy-book');
  await book.getByTestId('modal-close').click();

  // Bookmaker: back Lions at rate 40 for 100 (wins 40).
  await runner(pageA, ids.bookmaker, ids.bmLions).getByTestId('bm-back').click();
  assert.equal(await pageA.getByTestId('slip-rate').innerText(), '40');
  await pageA.getByTestId('slip-stake').fill('100');
  assert.equal(await pageA.getByTestId('slip-profit').innerText(), rupees('40.00'));
  assert.match(await place(pageA, '100'), /Bet matched/);
  await runner(pageA, ids.bookmaker, ids.bmLions).getByTestId('runner-position').filter({ hasText: rupees('40.00') }).waitFor();
  await headerShows(pageA, '100000.00', '300.00');
  await pageA.getByTestId('open-bets-matched-tab').click();
  await pageA.getByTestId('open-bets-matched-tab').filter({ hasText: 'Matched (3)' }).waitFor();
  await shoot(pageA, 'betting-fancy-bookmaker');
  assert.deepEqual(pageErrors, []);
});

test('a bet while the operator has the market ball running is refused with a message', async () => {
  const row = pageA.locator(`[data-testid="fancy-row"][data-market-id="${ids.fancy}"]`);
  await row.getByTestId('fancy-no').click();
  await pageA.getByTestId('slip-stake').fill('100');
  await operator('admin/market/status', { market_id: ids.fancy, status: 'ball_running' });
  // The stream brings the stop; the bet is refused in words either way.
  await row.getByTestId('status-overlay').filter({ hasText: 'Ball Running' }).waitFor();
  await pageA.getByTestId('place-bet').click();
  const error = pageA.getByTestId('slip-error');
  await error.filter({ hasText: 'Bet not placed: the ball was running.' }).waitFor();
  await shoot(pageA, 'betting-ball-running');

  // Straight at the server too: a ball-running market takes no bets.
  const demoToken = (await server.api('user/login', { user_name: 'demo', password: 'Demo@1234' })).body.data.token;
  const refused = await server.api('bet/placeBet', { market_id: ids.fancy, side: 'no', price: '100', line: 48, stake: '100', client_ref: 'e2e-ball-running' }, demoToken);
  assert.equal(refused.status, 409, JSON.stringify(refused.body));
  assert.match(refused.body.message, /ball running/i);

  await operator('admin/market/status', { market_id: ids.fancy, status: 'open' });
  await row.getByTestId('status-overlay').waitFor({ state: 'detached' });
  // The market reopened, and the slip still says why nothing was placed, until the bettor acts.
  assert.match(await error.innerText(), /Bet not placed: the ball was running\. Press Place Bet again when the market reopens\./);
  await pageA.getByTestId('slip-close').click();
  await headerShows(pageA, '100000.00', '300.00');
  assert.deepEqual(pageErrors, []);
});

test('after the operator declares the results, balances and statements show the settlement', async () => {
  await operator('admin/market/result', { market_id: ids.matchOdds, winner_selection_id: ids.lions });
  await operator('admin/market/result', { market_id: ids.bookmaker, winner_selection_id: ids.bmLions });
  await operator('admin/market/result', { market_id: ids.fancy, result: 57 });

  // demo: +150 (match odds) +40 (bookmaker) +100 (fancy yes at 49, 57 runs). demo2: −150.
  await runner(pageA, ids.matchOdds, ids.lions).getByTestId('status-overlay').filter({ hasText: 'Closed' }).waitFor();
  await headerShows(pageA, '100290.00', '0.00');
  await headerShows(pageB, '49850.00', '0.00');
  await shoot(pageA, 'betting-settled');

  await pageA.goto(`${server.baseUrl}/#/report/account-statement`);
  const rowsA = pageA.getByTestId('report-table').locator('tbody tr');
  await rowsA.filter({ hasText: `${MATCH_NAME} / Match Odds: won` }).waitFor();
  await rowsA.filter({ hasText: `${MATCH_NAME} / Bookmaker: won` }).waitFor();
  await rowsA.filter({ hasText: `${MATCH_NAME} / 6 over runs Lions: won` }).waitFor();
  assert.match(await rowsA.filter({ hasText: 'Match Odds: won' }).innerText(), /150\.00/);
  await shoot(pageA, 'betting-statement');

  await pageB.goto(`${server.baseUrl}/#/report/account-statement`);
  const lost = pageB.getByTestId('report-table').locator('tbody tr').filter({ hasText: `${MATCH_NAME} / Match Odds: lost` });
  await lost.waitFor();
  assert.match(await lost.innerText(), /₹150\.00[\s\S]*₹49,850\.00/);
  assert.deepEqual(pageErrors, []);
});

test('a race card from the racing page shows the win and place markets and takes a bet', async () => {
  // A fresh race at a meeting of its own, 2 hours from now, with win and place markets.
  const racingSeries = (await server.api('series/getSeries', { sport_id: 7, is_active: 1 }, adminToken)).body.data;
  const off = new Date(Date.now() + 2 * 60 * 60 * 1000);
  const race = (
    await operator('admin/match/create', { series_id: racingSeries[0].series_id, name: 'Testwood 2m Hurdle', open_date: off.toISOString(), venue: 'Testwood', country_code: 'IE' })
  ).id;
  const horses = ['Red Rum', 'Arkle', 'Shergar', 'Kauto Star'];
  const win = await operator('admin/market/create', { match_id: race, type: 'win', name: 'Win', runners: horses, bet_delay_s: 0 });
  const placeMarket = await operator('admin/market/create', { match_id: race, type: 'place', name: 'Place', runners: horses, winners: 2, bet_delay_s: 0 });
  await operator('admin/market/status', { market_id: win.market_id, status: 'open' });
  await operator('admin/market/status', { market_id: placeMarket.market_id, status: 'open' });
  // What the operator knows of two of the horses; of the others nothing, and nothing is shown.
  await operator('admin/market/runnerCards', {
    market_id: win.market_id,
    runners: [
      { selection_id: win.selection_ids[0], draw: 4, jockey: 'R. Moore', trainer: "A. P. O'Brien" },
      { selection_id: win.selection_ids[1], draw: 7 },
    ],
  });
  // An earlier race at the meeting, run and resulted.
  const earlier = (
    await operator('admin/match/create', { series_id: racingSeries[0].series_id, name: 'Testwood Sprint', open_date: new Date(off.getTime() - 10 * 60 * 1000).toISOString(), venue: 'Testwood', country_code: 'IE' })
  ).id;
  await operator('admin/match/score', { match_id: earlier, result: 'Won by Arkle' });

  // The day of the off at UTC+5:30, Ireland's tab, the Testwood meeting and its race time.
  const day = new Date(off.getTime() + 330 * 60 * 1000).toISOString().slice(0, 10);
  await pageA.goto(`${server.baseUrl}/#/horse-racing?sport_id=7&country=GB&date=${day}`);
  await pageA.getByTestId('racing-country').filter({ hasText: 'Ireland' }).click();
  const venue = pageA.getByTestId('venue').filter({ hasText: 'Testwood' });
  await venue.waitFor();
  // The race run is marked finished, the one to come is not.
  const times = venue.getByTestId('race-time');
  await times.filter({ hasText: 'Finished' }).waitFor();
  assert.equal(await times.count(), 2);
  assert.equal(await times.first().getAttribute('data-finished'), 'true');
  assert.equal(await times.last().getAttribute('data-finished'), 'false');
  await shoot(pageA, 'racing-venues');
  await times.last().click();
  await pageA.getByTestId('race-page').waitFor();
  assert.equal(new URL(pageA.url()).hash, `#/horse-racing/${race}/${day}`);
  await pageA.locator(`[data-testid="market"][data-market-id="${win.market_id}"]`).waitFor();
  await pageA.locator(`[data-testid="market"][data-market-id="${placeMarket.market_id}"]`).waitFor();
  assert.match(await pageA.getByTestId('race-info').innerText(), /Horse Racing/);
  // Two hours to the off, counted down.
  assert.match(await pageA.getByTestId('race-countdown').innerText(), /^Off in (2h 00m|1h 59m)$/);
  // The race card's facts the operator gave, under each horse's name.
  const redRum = runner(pageA, win.market_id, win.selection_ids[0]);
  assert.equal(await redRum.getByTestId('runner-draw').innerText(), 'Draw 4');
  assert.equal(await redRum.getByTestId('runner-jockey').innerText(), 'J: R. Moore');
  assert.equal(await redRum.getByTestId('runner-trainer').innerText(), "T: A. P. O'Brien");
  assert.equal(await runner(pageA, win.market_id, win.selection_ids[1]).getByTestId('runner-draw').innerText(), 'Draw 7');
  assert.equal(await runner(pageA, win.market_id, win.selection_ids[1]).getByTestId('runner-jockey').count(), 0);
  assert.equal(await runner(pageA, win.market_id, win.selection_ids[2]).getByTestId('runner-card').count(), 0);

  // Back Red Rum to win at 6.0 for 100: nobody offers it, so it waits; demo2 lays it and it is matched.
  await runner(pageA, win.market_id, win.selection_ids[0]).getByTestId('best-back').click();
  await pageA.getByTestId('slip-odds').fill('6');
  await pageA.getByTestId('slip-stake').fill('100');
  assert.equal(await pageA.getByTestId('slip-profit').innerText(), rupees('500.00'));
  assert.match(await place(pageA, '100'), /waiting to be matched/);
  await pageA.getByTestId('open-bets-unmatched-tab').filter({ hasText: 'Unmatched (1)' }).waitFor();
  await shoot(pageA, 'racing-card');

  await pageB.goto(`${server.baseUrl}/#/horse-racing/${race}/${day}`);
  const lay = runner(pageB, win.market_id, win.selection_ids[0]).getByTestId('best-lay');
  await lay.filter({ hasText: '6' }).waitFor();
  await lay.click();
  assert.match(await place(pageB, '100'), /Bet matched/);
  await pageA.getByTestId('open-bets-matched-tab').filter({ hasText: 'Matched (1)' }).waitFor(POLL_WAIT);
  assert.deepEqual(pageErrors, []);
});

test('an in-play bet waits out the bet delay with a visible countdown', async () => {
  const series = (await server.api('series/getSeries', { sport_id: 4, is_active: 1 }, adminToken)).body.data;
  const live = (await operator('admin/match/create', { series_id: series[0].series_id, name: 'Owls v Hawks', open_date: new Date().toISOString(), in_play: true })).id;
  const market = await operator('admin/market/create', { match_id: live, type: 'match_odds', name: 'Match Odds', runners: ['Owls', 'Hawks'], bet_delay_s: 3 });
  await operator('admin/market/status', { market_id: market.market_id, status: 'open' });

  await pageA.goto(`${server.baseUrl}/#/game-details/4/${live}`);
  const owls = runner(pageA, market.market_id, market.selection_ids[0]);
  await owls.getByTestId('best-back').click();
  await pageA.getByTestId('market').getByText('Delay 3s').waitFor();
  await pageA.getByTestId('slip-odds').fill('3');
  await pageA.getByTestId('slip-stake').fill('100');
  await pageA.getByTestId('place-bet').click();
  const seconds = pageA.getByTestId('bet-delay-seconds');
  await seconds.waitFor();
  // It starts at 3; on a loaded machine a second may pass before the page is read.
  assert.ok(['3', '2', '1'].includes(await seconds.innerText()), await seconds.innerText());
  assert.match(await pageA.getByTestId('place-bet').innerText(), /Placing… \d/);
  await shoot(pageA, 'betting-delay-countdown');
  await pageA.getByTestId('bet-outcome').filter({ hasText: 'waiting to be matched' }).waitFor();
  assert.equal(await pageA.getByTestId('bet-delay').count(), 0);
  assert.deepEqual(pageErrors, []);
});
