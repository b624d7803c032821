// @ts-check
// Casino journeys against the real server: an in-house table opened from the sidebar, a bet
// inside the betting window, the result paid into the header balance and the round found in
// the Casino Result report; a world-casino game launched from INT Casino into the framed game
// page, played through the seamless wallet and listed in Live Casino Bets.
//
// The server runs casino rounds with a 10 s betting window so a round ends within the test.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, logInAs, newPage, pollUntil, shoot, startServer } from '../harness.mjs';
import { exactly } from '../rupees.mjs';
import { assertFitsEveryViewport } from '../viewport.mjs';

const WINDOW_SECONDS = 10;
/** A round: the window, the deal and the result pause, with room to spare. */
const ROUND_WAIT = { timeout: (WINDOW_SECONDS + 20) * 1000 };
/**
 * A quick deal and a short result hold, so each table's next round comes soon: the deal's pace
 * and the hold are casino-dealing.test.mjs's to check, at the server's defaults.
 */
const QUICK_DEAL = ['--casino-card-ms', '200', '--casino-result-seconds', '2'];
/** Waits that span the header's 5 s balance poll. */
const POLL_WAIT = { timeout: 15_000 };

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
const pageErrors = [];
let token = '';

/** A call as the logged-in player. @param {string} apiPath @param {unknown} body */
const api = (apiPath, body) => server.api(apiPath, body, token);

/** The caller's balance in minor units, from the server. */
async function balanceMinor() {
  const answer = await fetch(`${server.baseUrl}/api/user/getUserBalance`, { headers: { Authorization: `Bearer ${token}` } });
  const body = await answer.json();
  const minor = Math.round(Number(body.data.total_balance) * 100);
  assert.ok(Number.isInteger(minor), `getUserBalance answered ${JSON.stringify(body)}`);
  return minor;
}

/** True for a `casino/round` answer whose round has settled. @param {{ body: any }} answer */
const isSettled = (answer) => answer.body.data?.phase === 'settled';

before(async () => {
  server = await startServer({ extraArgs: ['--no-demo-feed', '--casino-window-seconds', String(WINDOW_SECONDS), ...QUICK_DEAL] });
  browser = await launchBrowser();
  page = await newPage(browser);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  token = await logInAs(page, server.baseUrl);
  await page.getByTestId('balance').filter({ hasText: /\d+\.\d{2}/ }).waitFor();
  assert.ok(token, 'the session token is stored');
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a table from the sidebar: bet in the window, see the result and the new balance, find the round in Casino Result', async () => {
  // The table follows its rounds on the live stream (polling slowly meanwhile).
  const roundStream = page.waitForResponse((r) => r.url().includes('/api/stream?casino=dt6&ticket='));
  await page.getByRole('link', { name: 'DT 1 DAY', exact: true }).click();
  const table = page.getByTestId('casino-table');
  await table.waitFor();
  assert.match(await page.evaluate(() => location.hash), /^#\/casino\/match\/dt6$/);
  const streamed = await roundStream;
  assert.equal(streamed.status(), 200);
  assert.match(streamed.headers()['content-type'] ?? '', /^text\/event-stream/);

  // Wait for a round with at least 5 s of its window left, so the bet is not a race.
  await bettingOpenFor(5);
  const roundId = (await page.getByTestId('casino-round-id').innerText()).trim();
  assert.match(roundId, /^dt1day-\d+$/);
  const before = await balanceMinor();

  await page.getByTestId('casino-market-dragon').click();
  const slip = page.getByTestId('casino-slip');
  await slip.getByTestId('casino-stake').fill('100');
  await slip.getByTestId('casino-place-bet').click();
  const myBet = page.getByTestId('casino-my-bet');
  await myBet.first().waitFor();
  assert.equal(await balanceMinor(), before - 100_00, 'the stake left the balance when the bet was taken');
  await shoot(page, 'casino-table-bet');

  // The window closes: the markets are suspended, then the cards and the winner show.
  await page.getByTestId('casino-winner').waitFor(ROUND_WAIT);
  assert.equal(await page.getByTestId('casino-round-id').innerText(), roundId);
  await shoot(page, 'casino-table-result');

  // Settled once, at the posted odds: Dragon pays 2.00, a tie gives half back, Tiger loses.
  const detail = await pollUntil(() => api('casino/round', { round_id: roundId }), isSettled, { timeoutMs: 10_000, intervalMs: 200 });
  assert.equal(detail.body.data.phase, 'settled', JSON.stringify(detail.body));
  const payout = { Dragon: 200_00, Tie: 50_00, Tiger: 0 }[/** @type {string} */ (detail.body.data.winner)];
  assert.ok(payout !== undefined, `winner ${detail.body.data.winner}`);
  const after = await balanceMinor();
  assert.equal(after, before - 100_00 + payout);
  await page.getByTestId('balance').filter({ hasText: exactly(after, 'minor') }).waitFor(POLL_WAIT);

  // The result strip links to the round's page, whose commitment checks out in the browser.
  await page.getByTestId('casino-last-results').locator(`a[href$="${roundId}"]`).waitFor(ROUND_WAIT);
  await page.getByTestId('casino-last-results').locator(`a[href$="${roundId}"]`).click();
  await page.getByTestId('casino-round-page').waitFor();
  await page.getByTestId('commitment-check').filter({ hasText: /matches/i }).waitFor();
  // The browser recomputed the deal from the seed and round id: the cards the server dealt.
  const dealt = /** @type {string[]} */ (detail.body.data.cards);
  await page.getByTestId('deal-check').filter({ hasText: `Deal matches: ${dealt.join(' ')}` }).waitFor();
  await shoot(page, 'casino-round-verified');

  // By hand, with no connection: the round's figures filled in, checked in the browser alone.
  await page.getByTestId('verify-by-hand-link').click();
  await page.getByTestId('casino-verify-page').waitFor();
  await page.context().setOffline(true);
  try {
    await page.getByTestId('verify-dealt').fill(dealt.join(' '));
    await page.getByTestId('verify-submit').click();
    await page.getByTestId('commitment-check').filter({ hasText: /Commitment matches/ }).waitFor();
    await page.getByTestId('deal-check').filter({ hasText: `Deal matches: ${dealt.join(' ')}` }).waitFor();
    await shoot(page, 'casino-round-checked-by-hand');
  } finally {
    await page.context().setOffline(false);
  }

  // The round is in the Casino Result report for the game.
  await page.goto(`${server.baseUrl}/#/report/casino-result`);
  await page.getByTestId('casino-result-page').waitFor();
  await page.getByTestId('filter-game').selectOption({ label: 'DT 1 DAY' });
  await page.getByTestId('filter-submit').click();
  await page.getByTestId('casino-result-page').getByText(roundId).waitFor(POLL_WAIT);
  // Its cards by hand, as the table dealt them: Dragon's card, then Tiger's.
  const resultRow = page.getByTestId('report-table').locator('tr', { hasText: roundId });
  assert.deepEqual(await resultRow.locator('.round-hand-name').allInnerTexts(), ['Dragon', 'Tiger']);
  assert.equal(await resultRow.getByTestId('round-hand').locator('svg.playing-card').count(), 2);
  await assertFitsEveryViewport(page, 'casino-result-report');
  assert.deepEqual(pageErrors, []);
});

/** Waits on the open table for a round with at least `seconds` of its window left. @param {number} seconds */
async function bettingOpenFor(seconds) {
  await page.waitForFunction(
    (least) => {
      const status = document.querySelector('[data-testid="casino-status"]')?.textContent ?? '';
      const left = Number(document.querySelector('[data-testid="casino-countdown"]')?.textContent ?? '0');
      return /betting/i.test(status) && left >= least;
    },
    seconds,
    ROUND_WAIT,
  );
}

test('each of the sixteen tables takes a bet from the browser, and every round settles and verifies', async () => {
  const sidebar = ['TP T20', 'TP 1 DAY', 'TP TEST', 'DT 1 DAY', 'TP 2 Card', 'HILOW', 'POKER', 'QUEEN', 'BACCARAT',
    'AMAR AKBAR ANTHONEY', 'BOLLYWOOD', 'TRIO', 'ANDAR BAHAR', 'MUFLIS TP', 'ROULETTE', 'WORLI MATAKA'];
  const before = await balanceMinor();
  /** @type {string[]} */
  const rounds = [];
  for (const name of sidebar) {
    await page.getByRole('link', { name, exact: true }).click();
    await page.getByTestId('casino-table').waitFor();
    // The table before stays on screen until the new one has loaded: wait for the new game's
    // round, or a busy machine reads (and bets on) the old table's.
    const previousGame = rounds.at(-1)?.replace(/-\d+$/, '') ?? '';
    await page.waitForFunction(
      (previous) => {
        const id = document.querySelector('[data-testid="casino-round-id"]')?.textContent?.trim() ?? '';
        return id !== '' && id.replace(/-\d+$/, '') !== previous;
      },
      previousGame,
      ROUND_WAIT,
    );
    await bettingOpenFor(3);
    const roundId = (await page.getByTestId('casino-round-id').innerText()).trim();
    await page.locator('button[data-testid^="casino-market-"]:enabled').first().click();
    await page.getByTestId('casino-stake').fill('10');
    await page.getByTestId('casino-place-bet').click();
    await page.getByTestId('casino-my-bet').first().waitFor();
    rounds.push(roundId);
  }
  assert.equal(new Set(rounds.map((r) => r.replace(/-\d+$/, ''))).size, 16, `one round per game: ${rounds.join(',')}`);

  // Every round is dealt, settled once and recomputes from its revealed seed.
  for (const roundId of rounds) {
    const detail = await pollUntil(() => api('casino/round', { round_id: roundId }), isSettled, { timeoutMs: 30_000, intervalMs: 200 });
    assert.equal(detail.body.data.phase, 'settled', `${roundId}: ${JSON.stringify(detail.body)}`);
    assert.equal(detail.body.data.verified, true, `${roundId} verifies`);
    // The player's browser recomputes the same deal from the seed and round id (fair-deal.ts).
    await page.goto(`${server.baseUrl}/#/casino/round/${roundId}`);
    await page.getByTestId('casino-round-id').filter({ hasText: roundId }).waitFor();
    await page.locator('[data-testid="commitment-check"][data-state="match"]').waitFor();
    await page.locator('[data-testid="deal-check"][data-state="match"]').waitFor();
  }
  // No casino bet is left open, and the balance moved by exactly the stakes and payouts the
  // statement lists for these rounds.
  const open = await api('report/currentBets', { type: 'casino', status: 'matched', page: 1, limit: 50 });
  assert.equal(open.status, 200, JSON.stringify(open.body));
  assert.equal(open.body.data.total, 0, JSON.stringify(open.body.data));
  const statement = await api('report/accountStatement', { type: 'casino', page: 1, limit: 100 });
  assert.equal(statement.status, 200, JSON.stringify(statement.body));
  const ours = statement.body.data.rows.filter((/** @type {{description: string}} */ row) => rounds.some((r) => row.description.includes(r)));
  const net = ours.reduce((/** @type {number} */ sum, /** @type {{credit: number, debit: number}} */ row) => sum + Math.round(Number(row.credit) * 100) - Math.round(Number(row.debit) * 100), 0);
  assert.ok(ours.filter((/** @type {{debit: number}} */ row) => Number(row.debit) === 10).length === 16, JSON.stringify(ours));
  assert.equal(await balanceMinor(), before + net);
  assert.deepEqual(pageErrors, []);
});

test('INT Casino: a world-casino game launches into the framed page, plays through the wallet and shows in Live Casino Bets', async () => {
  await page.goto(`${server.baseUrl}/#/`);
  await page.getByRole('link', { name: 'INT Casino', exact: true }).click();
  await page.getByTestId('world-casino-page').waitFor();
  await page.getByTestId('world-casino-search').fill('baccarat');
  const tiles = page.getByTestId('world-casino-games').getByRole('button');
  await tiles.first().waitFor();
  assert.equal(await tiles.count(), 1, 'the search leaves the one Baccarat table');
  // The in-house game says what it is: the built-in provider's, dealt by the computer.
  assert.match(await tiles.first().innerText(), /Baccarat Instant[\s\S]*Backlay Games[\s\S]*Instant · computer-dealt/);
  await shoot(page, 'world-casino');
  const before = await balanceMinor();
  await tiles.first().click();

  // gap/gaplogin answered the built-in provider's address on this server's own origin: framed.
  await page.getByTestId('casino-game-page').waitFor();
  const framed = new URL(decodeURIComponent(new URL(page.url().replace('#/', '')).searchParams.get('url') ?? ''));
  assert.equal(framed.origin, server.baseUrl);
  const frameElement = page.locator('iframe.game-frame');
  assert.equal(new URL((await frameElement.getAttribute('src')) ?? '').origin, server.baseUrl);
  const game = page.frameLocator('iframe.game-frame');
  await game.locator('#title').filter({ hasText: /baccarat/i }).waitFor();
  await game.locator('#balance').filter({ hasText: /\d\.\d{2}$/ }).waitFor();

  await game.locator('#markets button').first().click();
  await game.locator('#stake').fill('100');
  await game.locator('#deal').click();
  const result = game.locator('#result');
  await result.waitFor();
  const text = await result.innerText();
  const payoutText = /payout ₹([\d,]+\.\d{2})/.exec(text)?.[1];
  assert.ok(payoutText, text);
  const payout = Math.round(Number(payoutText.replaceAll(',', '')) * 100);
  const now = await balanceMinor();
  assert.equal(now, before - 100_00 + payout, 'the wallet debited the stake and credited the payout');
  // One balance: the framed game shows the figure the header shows, in the header's format.
  await game.locator('#balance').filter({ hasText: exactly(now, 'minor') }).waitFor();
  const frameBalance = await game.locator('#balance').innerText();

  // The cards are drawn as cards, grouped by hand: a rank over a suit symbol, red or black,
  // never the server's two-letter code ("QH", "TD").
  assert.deepEqual(await result.locator('.hand .hand-name').allInnerTexts(), ['Player', 'Banker']);
  const cards = await result.locator('.hand .card').all();
  assert.ok(cards.length >= 4 && cards.length <= 6, `baccarat deals 4 to 6 cards, ${cards.length} shown`);
  for (const card of cards) {
    const face = (await card.innerText()).replace(/[\s\uFE0E]/g, '');
    assert.match(face, /^(10|[2-9AJQK])[♠♥♦♣]$/, `a card reads ${JSON.stringify(face)}`);
    assert.equal(await card.getAttribute('class'), /[♥♦]/.test(face) ? 'card red' : 'card');
    assert.match((await card.getAttribute('aria-label')) ?? '', /^(Ace|King|Queen|Jack|\d+) of (spades|hearts|diamonds|clubs)$/);
  }
  assert.doesNotMatch(await result.locator('.hands').innerText(), /\b(10|[2-9TJQKA])[SHDC]\b/);
  await shoot(page, 'world-casino-game');

  // The provider's debit and credit are the caller's Live Casino Bets.
  await page.goto(`${server.baseUrl}/#/report/live-casino-bets`);
  await page.getByTestId('balance').filter({ hasText: exactly(now, 'minor') }).waitFor(POLL_WAIT);
  assert.equal(await page.getByTestId('balance').innerText(), frameBalance, "the header's balance text is the frame's");
  const report = page.getByTestId('live-casino-bets-page');
  await report.waitFor();
  await report.getByText(/debit/i).first().waitFor(POLL_WAIT);
  await report.getByText(/credit/i).first().waitFor();
  await shoot(page, 'live-casino-bets');
  assert.deepEqual(pageErrors, []);
});

test('an address off the allow-list is never framed', async () => {
  for (const url of ['https://evil.example.test/game', 'javascript:alert(1)', `${server.baseUrl.replace('127.0.0.1', 'localhost')}/provider/play`]) {
    await page.goto(`${server.baseUrl}/#/casino/mac88/game?url=${encodeURIComponent(url)}`);
    await page.getByTestId('game-error').waitFor();
    assert.equal(await page.locator('iframe').count(), 0, url);
  }
  await shoot(page, 'casino-game-refused-off-list');
});
