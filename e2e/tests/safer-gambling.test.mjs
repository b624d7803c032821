// @ts-check
// Safer gambling as a bettor uses it (docs/api.md "Safer gambling"), at 1280 and at 390 px, each
// width with a bettor of its own (made by the agent through the API, like a new client): log in
// through the log-in page, open Safer Gambling from the user menu and set a daily loss limit of
// ₹100.00, seen in force; on a match the slip says "You can lose ₹100.00 more today.", a back of
// ₹60.00 is matched, and a second one is refused on the slip with what is left (₹40.00); then a
// 24-hour time-out, confirmed in its dialog, logs the app out to the log-in page, which says
// until when, and logging in again is refused until then.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { freshPage, launchBrowser, logIn, logInAs, startServer } from '../harness.mjs';
import { exactly, rupees } from '../rupees.mjs';
import { VIEWPORTS, assertFitsViewport } from '../viewport.mjs';

const GIVEN_PASSWORD = 'Start@1234';
const OWN_PASSWORD = 'Mine@1234';
const DAY_MS = 24 * 60 * 60 * 1000;
/** What the time-out's end may be off by: the pages show whole seconds. */
const SECOND_MS = 1000;
/** IST is UTC+5:30 (web/src/lib/format.ts). */
const IST_OFFSET_MS = 330 * 60 * 1000;

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
const tokens = { admin: '', agent: '', maker: '' };
let matchId = 0;

/** A call that must succeed. @param {string} apiPath @param {unknown} body @param {string} token */
async function call(apiPath, body, token) {
  const answer = await server.api(apiPath, body, token);
  assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** A GET, which `server.api` does not send: its status and answer. @param {string} apiPath @param {string} token */
async function get(apiPath, token) {
  const response = await fetch(`${server.baseUrl}/api/${apiPath}`, { headers: { Authorization: `Bearer ${token}` } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** @param {string} userName @param {string} password */
async function login(userName, password) {
  return server.api('user/login', { user_name: userName, password });
}

/**
 * A client of the demo agent with its own password (the forced first change made) and ₹1,000.00
 * of chips, as a new bettor has; answers its id.
 * @param {string} userName
 */
async function newBettor(userName) {
  const made = await call('admin/user/create', { user_name: userName, password: GIVEN_PASSWORD, role: 'client' }, tokens.agent);
  const first = await login(userName, GIVEN_PASSWORD);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  await call('user/changePassword', { master_password: GIVEN_PASSWORD, new_password: OWN_PASSWORD, confirm_password: OWN_PASSWORD }, first.body.data.token);
  await call('admin/user/transfer', { user_id: made.user_id, amount: 1000, direction: 'deposit' }, tokens.agent);
  return /** @type {number} */ (made.user_id);
}

/** "29/11/2026 21:22:33" at IST (lib/format's formatIstDateTime) as epoch ms. @param {string} text */
function istToMs(text) {
  const parts = /^(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d):(\d\d)$/.exec(text);
  assert.ok(parts, `an IST date and time: ${text}`);
  const [day, month, year, hours, minutes, seconds] = parts.slice(1).map(Number);
  return Date.UTC(year, month - 1, day, hours, minutes, seconds) - IST_OFFSET_MS;
}

/** The slip is a back of Ravens. @param {import('playwright-core').Locator} slip */
async function backRavens(slip) {
  assert.equal((await slip.getByTestId('slip-side').textContent())?.trim(), 'Back');
  assert.equal((await slip.getByTestId('slip-runner').textContent())?.trim(), 'Ravens');
}

/** Opens Safer Gambling as a bettor finds it: the user menu, then its item. @param {import('playwright-core').Page} page */
async function openSaferGambling(page) {
  await page.getByTestId('user-menu-toggle').click();
  await page.getByTestId('user-menu').getByTestId('menu-safer-gambling').click();
  await page.getByTestId('safer-gambling-page').waitFor();
  assert.equal(new URL(page.url()).hash, '#/safer-gambling');
}

before(async () => {
  server = await startServer();
  tokens.admin = (await login('admin', 'Admin@1234')).body.data.token;
  tokens.agent = (await login('agent', 'Agent@1234')).body.data.token;
  tokens.maker = (await login('maker', 'Maker@1234')).body.data.token;
  const series = await call('series/getSeries', { sport_id: 4, is_active: 1 }, tokens.admin);
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  matchId = (await call('admin/match/create', { series_id: series[0].series_id, name: 'Ravens v Swifts', open_date: openDate }, tokens.admin)).id;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`at ${viewport.width} px: a daily loss limit set on Safer Gambling refuses the bet past it, and a 24-hour time-out logs out and refuses log-in (${label})`, { timeout: 180_000 }, async () => {
    const bettor = `safer${viewport.width}`;
    await newBettor(bettor);
    // A market of this test's own, with someone to back against: the maker's lay of Ravens at 2.50.
    const created = await call('admin/market/create', { match_id: matchId, type: 'match_odds', name: `Match Odds ${label}`, runners: ['Ravens', 'Swifts'], min_stake: 1, bet_delay_s: 0 }, tokens.admin);
    const market = created.market_id;
    const [ravens] = created.selection_ids;
    await call('admin/market/status', { market_id: market, status: 'open' }, tokens.admin);
    await call('bet/placeBet', { market_id: market, selection_id: ravens, side: 'lay', price: 2.5, stake: 1000 }, tokens.maker);

    const { page, errors } = await freshPage(browser, server.baseUrl);
    await page.setViewportSize(viewport);
    const token = await logInAs(page, server.baseUrl, bettor, OWN_PASSWORD);
    assert.ok(token, 'the log-in stored a session');
    await page.getByTestId('user-name').filter({ hasText: bettor }).waitFor();

    // 1. Safer Gambling from the user menu: no loss limit yet; ₹100.00 a day set through the form.
    await openSaferGambling(page);
    const limits = page.getByTestId('limits-section');
    const lossPerDay = limits.getByTestId('limit-row-loss_day');
    await lossPerDay.getByTestId('limit-in-force').filter({ hasText: 'No limit' }).waitFor();
    assert.equal(await limits.getByTestId('limit-left-loss').count(), 0, 'nothing left to say without a loss limit');
    await limits.getByTestId('limit-slot').selectOption({ label: 'Loss per day' });
    await limits.getByTestId('limit-value').fill('100');
    await limits.getByTestId('limit-set').click();
    const said = limits.getByTestId('limits-message');
    await said.filter({ hasText: 'It applies now.' }).waitFor();
    assert.match(await said.innerText(), /loss limit is now .*100/, 'the server says which limit it set');
    await lossPerDay.getByTestId('limit-in-force').filter({ hasText: exactly(100) }).waitFor();
    assert.equal((await lossPerDay.getByTestId('limit-waiting').innerText()).trim(), '-', 'nothing waits: a new limit applies at once');
    await limits.getByTestId('limit-left-loss').filter({ hasText: `You can lose ${rupees(100)} more today.` }).waitFor();
    assert.equal(await limits.getByTestId('limit-value').inputValue(), '', 'the form is cleared once the limit is set');
    const stored = (await get('user/limits', token)).body.data;
    assert.deepEqual(stored.limits, [{ kind: 'loss', period: 'day', value: 100 }]);
    assert.deepEqual(stored.left, [{ kind: 'loss', period: 'day', value: 100 }]);
    if (label === 'phone') await assertFitsViewport(page, 'safer-gambling-390');

    // 2. The match: the slip says what the limit leaves; ₹60.00 backed is matched, a second ₹60.00 refused.
    await page.goto(`${server.baseUrl}/#/match/matchdetail/${matchId}`);
    const board = page.locator(`[data-testid="market"][data-market-id="${market}"]`);
    const runner = board.locator(`[data-testid="runner"][data-selection-id="${ravens}"]`);
    const slip = page.getByTestId('bet-slip');
    await runner.getByTestId('best-back').filter({ hasText: '2.5' }).click();
    await slip.getByTestId('limit-left-loss').filter({ hasText: `You can lose ${rupees(100)} more today.` }).waitFor();
    await backRavens(slip);
    assert.match(await slip.getByTestId('slip-odds').inputValue(), /^2\.50?$/);
    await slip.getByTestId('slip-stake').fill('60');
    await slip.getByTestId('place-bet').click();
    await page.getByTestId('bet-outcome').filter({ hasText: 'Bet matched.' }).waitFor();
    await slip.waitFor({ state: 'detached' });
    // The position the bet made brings a Cash Out bar above the runners: tap once it is there,
    // not while the rows move under the tap.
    await board.getByTestId('cash-out').waitFor();

    await runner.getByTestId('best-back').click();
    await backRavens(slip);
    await slip.getByTestId('limit-left-loss').filter({ hasText: `You can lose ${rupees(40)} more today.` }).waitFor();
    await slip.getByTestId('slip-stake').fill('60');
    await slip.getByTestId('place-bet').click();
    const refusal = slip.getByTestId('slip-error');
    await refusal.waitFor();
    assert.equal(
      (await refusal.innerText()).trim(),
      `Bet not placed: This would go past your daily loss limit of ${rupees(100)}: you can lose ${rupees(40)} more today.`,
    );
    assert.equal(await page.getByTestId('bet-outcome').count(), 0, 'no outcome for a refused bet');
    const open = await call('bet/openBets', { match_id: matchId }, token);
    assert.equal(open.matched.length, 1, `one bet matched: ${JSON.stringify(open)}`);
    assert.equal(open.matched[0].stake, 60);
    assert.equal(open.unmatched.length, 0, `nothing waits: ${JSON.stringify(open)}`);
    assert.deepEqual((await get('user/limits', token)).body.data.left, [{ kind: 'loss', period: 'day', value: 40 }]);
    await slip.getByTestId('slip-close').click();

    // 3. A 24-hour time-out: the period, the password, the dialog's plain words, then the log-in page.
    await openSaferGambling(page);
    const timeOut = page.getByTestId('break-timeOut');
    await timeOut.getByTestId('break-timeOut-period').selectOption({ label: '24 hours' });
    await timeOut.getByTestId('break-timeOut-password').fill(OWN_PASSWORD);
    await timeOut.getByTestId('break-timeOut-continue').click();
    const dialog = page.getByTestId('break-confirm');
    const title = dialog.getByRole('heading', { name: 'Take a time-out for 24 hours?' });
    await title.waitFor();
    // Readable: not drawn in its header bar's own colour (a page rule once reached it).
    const [ink, bar] = await title.evaluate((h) => [
      getComputedStyle(h).color,
      getComputedStyle(h.closest('.modal-header') ?? h).backgroundColor,
    ]);
    assert.notEqual(ink, bar, 'the dialog title is the colour of its header bar');
    await dialog.getByText('You cannot log in for 24 hours.').waitFor();
    await dialog.getByText('You are logged out at once, here and on every other device').waitFor();
    if (label === 'phone') await assertFitsViewport(page, 'safer-gambling-time-out-390');
    const startedMs = Date.now();
    await dialog.getByTestId('break-confirm-button').click();
    const farewell = page.getByTestId('farewell');
    await farewell.waitFor();
    const endedMs = Date.now();
    await page.getByTestId('login-submit').waitFor();
    assert.equal(new URL(page.url()).hash, '#/login');
    const farewellText = (await farewell.innerText()).trim();
    const started = /^Your time-out has started\. You cannot log in until (\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d)\.$/.exec(farewellText);
    assert.ok(started, `the log-in page says the time-out has started: ${farewellText}`);
    const until = started[1];
    const untilMs = istToMs(until);
    assert.ok(
      untilMs >= startedMs + DAY_MS - SECOND_MS && untilMs <= endedMs + DAY_MS,
      `until ${until} is 24 hours after the confirmation (${new Date(startedMs).toISOString()} to ${new Date(endedMs).toISOString()})`,
    );
    assert.equal(await page.evaluate(() => localStorage.getItem('usertoken')), null, 'the app dropped its session');
    assert.equal((await get('user/limits', token)).status, 401, 'the server ended the session');

    // Logging in again is refused with the same end.
    await logIn(page, bettor, OWN_PASSWORD);
    const refused = page.getByTestId('error-message');
    await refused.filter({ hasText: 'time-out' }).waitFor();
    assert.equal((await refused.innerText()).trim(), `You are on a time-out until ${until}. You can log in again after that.`);
    assert.equal(new URL(page.url()).hash, '#/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('usertoken')), null, 'no session after the refused log-in');
    const again = await login(bettor, OWN_PASSWORD);
    assert.equal(again.status, 422, JSON.stringify(again.body));
    assert.equal(again.body.data.refusal.refusal, 'timed_out');
    assert.equal(Math.floor(again.body.data.refusal.until_ms / SECOND_MS) * SECOND_MS, untilMs);

    assert.deepEqual(errors, []);
    await page.close();
  });
}
