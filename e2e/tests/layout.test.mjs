// @ts-check
// The layout a bettor meets at 1280 and 390 px: home, a sport page, a match page and every
// report fit the screen (no element wider than the viewport); on a phone a match's name is on
// its own line above its prices, under their own 1 / X / 2 headings, and a match's open bets
// are a tab above its markets; a suspended market is one band over hidden prices; the search
// dropdown closes on a click outside; sign-up refuses a 9-digit Indian mobile; the casino lobby
// shows every in-house table's art, filling its tile, under honest categories.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, newPage, startServer } from '../harness.mjs';
import { assertFitsEveryViewport, assertFitsViewport, VIEWPORTS } from '../viewport.mjs';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {import('../harness.mjs').Browser} */
let browser;
/** @type {string} */
let adminToken;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminToken = (await server.api('user/login', { user_name: 'admin', password: 'Admin@1234' })).body.data.token;
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A tab with empty storage (the one browser's tabs share it) at this route. @param {string} route */
async function freshPage(route) {
  const page = await newPage(browser);
  await page.goto(`${server.baseUrl}/`);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.goto(`${server.baseUrl}/#${route}`);
  await page.reload();
  return page;
}

/** A tab logged in as demo, the welcome popup closed. */
async function loggedIn() {
  const page = await freshPage('/login');
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.getByTestId('login-user-name').fill('demo');
  await page.getByTestId('login-password').fill('Demo@1234');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('welcome-popup').waitFor();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  return { page, errors };
}

/** @param {import('playwright-core').Page} page @param {string} route @param {string} testId */
async function open(page, route, testId) {
  await page.goto(`${server.baseUrl}/#${route}`);
  await page.getByTestId(testId).waitFor();
  await page.getByTestId('loading').waitFor({ state: 'detached' });
}

test('home, a sport page, a match page and every report fit at 1280 and 390 px', async () => {
  const { page, errors } = await loggedIn();
  await open(page, '/', 'home-page');
  await page.getByTestId('match-row').first().waitFor();
  // The In-Play block comes first, then the sport tabs.
  const blocks = await page.locator('[data-testid="in-play-block"], [data-testid="sport-tabs-card"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  assert.deepEqual(blocks, ['in-play-block', 'sport-tabs-card']);
  await assertFitsEveryViewport(page, 'layout-home');

  // On a phone each match's name is one line above its strip of prices.
  await page.setViewportSize(VIEWPORTS.phone);
  const rows = await page.getByTestId('match-row').evaluateAll((els) =>
    els.map((row) => {
      const name = /** @type {HTMLElement} */ (row.querySelector('[data-testid="match-name"]'));
      const odds = /** @type {HTMLElement} */ (row.querySelector('[data-testid="match-odds"]'));
      // One line of text is less than two font sizes high.
      const fontSize = parseFloat(getComputedStyle(name).fontSize);
      // The strip's own 1 / X / 2 headings, one centred over each pair shown.
      const labels = Array.from(row.querySelectorAll('[data-testid="outcome-labels"] > span')).map((l) => l.getBoundingClientRect());
      const pairs = Array.from(odds.querySelectorAll('.odds-pair')).map((p) => p.getBoundingClientRect()).filter((r) => r.width > 0);
      const centre = (/** @type {DOMRect} */ r) => r.left + r.width / 2;
      return {
        oneLine: name.getBoundingClientRect().height < fontSize * 2,
        above: name.getBoundingClientRect().bottom <= odds.getBoundingClientRect().top,
        fullWidth: odds.getBoundingClientRect().width >= row.getBoundingClientRect().width - 16,
        headed:
          labels.length === pairs.length &&
          labels.every((l, i) => l.height > 0 && l.bottom <= pairs[i].top + 1 && Math.abs(centre(l) - centre(pairs[i])) <= 2),
      };
    }),
  );
  assert.ok(rows.length > 0);
  assert.deepEqual(rows.filter((r) => !r.oneLine || !r.above || !r.fullWidth || !r.headed), []);
  // On a computer the list's one heading row says them instead.
  await page.setViewportSize(VIEWPORTS.desktop);
  assert.equal(await page.getByTestId('outcome-labels').first().isVisible(), false);
  await page.setViewportSize(VIEWPORTS.phone);
  const firstHeadings = (await page.getByTestId('match-row').first().getByTestId('outcome-labels').locator('span').allInnerTexts()).join(' ');
  assert.ok(['1 2', '1 X 2'].includes(firstHeadings), firstHeadings);
  await page.setViewportSize(VIEWPORTS.desktop);

  // Tennis is two-way: no X column, and on a phone two pairs per row.
  await open(page, '/all-sports/2', 'all-sports-page');
  await page.getByTestId('match-row').first().waitFor();
  const headers = await page.getByTestId('match-list').first().getByRole('columnheader').allInnerTexts();
  assert.deepEqual(headers.map((h) => h.trim()), ['Game', '1', '2']);
  await assertFitsEveryViewport(page, 'layout-tennis');

  await open(page, '/all-sports/4', 'all-sports-page');
  await page.getByTestId('match-row').first().waitFor();
  await assertFitsEveryViewport(page, 'layout-cricket');
  await page.getByTestId('match-row').first().locator('a.match-link').click();
  await page.getByTestId('market').first().waitFor();
  await assertFitsEveryViewport(page, 'layout-match');
  // On a phone the open bets are one tab above the markets, not below every fancy line.
  await page.setViewportSize(VIEWPORTS.phone);
  const betsTab = page.getByTestId('board-bets-tab');
  await page.getByTestId('fancy-row').first().waitFor();
  const tabBottom = (await betsTab.boundingBox())?.y ?? Infinity;
  const firstMarketTop = (await page.getByTestId('market').first().boundingBox())?.y ?? 0;
  assert.ok(tabBottom < firstMarketTop, `the Open Bets tab (y ${tabBottom}) above the markets (y ${firstMarketTop})`);
  assert.equal(await page.getByTestId('open-bets').count(), 0);
  await betsTab.click();
  await page.getByTestId('open-bets').waitFor();
  assert.equal(await page.getByTestId('fancy-row').count(), 0);
  await assertFitsViewport(page, 'layout-match-open-bets-390');
  await page.getByTestId('board-markets-tab').click();
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.getByTestId('open-bets').waitFor();
  assert.equal(await betsTab.count(), 0);

  for (const [route, id] of [
    ['/report/account-statement', 'account-statement-page'],
    ['/report/payment-withdraw', 'payment-statement-page'],
    ['/report/current-bet', 'current-bet-page'],
    ['/report/casino-result', 'casino-result-page'],
    ['/report/live-casino-bets', 'live-casino-bets-page'],
  ]) {
    await open(page, route, id);
    await assertFitsEveryViewport(page, `layout-${id}`);
    // The date filters show days as the tables do.
    const from = page.getByTestId('filter-from');
    if (await from.count()) assert.match(await from.inputValue(), /^\d{2}\/\d{2}\/\d{4}$/);
  }
  // demo's statement has rows (the opening credit): on a phone each is a card of labelled lines.
  await open(page, '/report/account-statement', 'account-statement-page');
  await page.setViewportSize(VIEWPORTS.phone);
  const firstRow = page.getByTestId('report-table').locator('tbody tr').first();
  await firstRow.locator('td[data-label]').first().waitFor();
  assert.equal(await page.getByTestId('report-table').locator('thead').isVisible(), false);
  const label = await firstRow.locator('td[data-label]').first().evaluate((td) => getComputedStyle(td, '::before').content);
  assert.notEqual(label, 'none');
  await assertFitsViewport(page, 'layout-statement-rows-390');
  await page.setViewportSize(VIEWPORTS.desktop);
  assert.deepEqual(errors, []);
  await page.close();
});

test("on a phone the browser's Back closes the side menu and the My Market pop-up", async () => {
  const { page, errors } = await loggedIn();
  await page.setViewportSize(VIEWPORTS.phone);
  await open(page, '/', 'home-page');
  await open(page, '/report/current-bet', 'current-bet-page');
  const drawer = page.locator('.sidebar-wrap');
  const onScreen = async () => ((await drawer.boundingBox())?.x ?? -1) >= 0;

  await page.getByTestId('sidebar-toggle').click();
  await page.waitForFunction(() => (document.querySelector('.sidebar-wrap')?.getBoundingClientRect().x ?? -1) >= 0);
  await page.goBack();
  await page.getByTestId('home-page').waitFor();
  await page.waitForFunction(() => (document.querySelector('.sidebar-wrap')?.getBoundingClientRect().right ?? 1) <= 0);
  assert.equal(await onScreen(), false);

  await page.goForward();
  await page.getByTestId('current-bet-page').waitFor();
  await page.getByTestId('exposure-button').click();
  await page.getByTestId('my-market-modal').waitFor();
  await page.goBack();
  await page.getByTestId('home-page').waitFor();
  await page.getByTestId('my-market-modal').waitFor({ state: 'detached' });
  await page.setViewportSize(VIEWPORTS.desktop);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a suspended market is one band over hidden prices, in the list and on the match page', async () => {
  const demoToken = (await server.api('user/login', { user_name: 'demo', password: 'Demo@1234' })).body.data.token;
  /** @type {{ match_id: number, sport_id: number, in_play: boolean, odds: { market_id: number, status: string } | null }[]} */
  const matches = (await server.api('match/getMatches', { sport_id: 4, is_active: 1 }, demoToken)).body.data;
  const match = matches.find((m) => !m.in_play && m.odds?.status === 'open');
  assert.ok(match?.odds, 'a cricket match to come with open match odds');
  const suspended = await server.api('admin/market/status', { market_id: match.odds.market_id, status: 'suspended' }, adminToken);
  assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
  try {
    const { page, errors } = await loggedIn();
    await open(page, '/all-sports/4', 'all-sports-page');
    const row = page.locator(`[data-testid="match-row"][data-match-id="${match.match_id}"]`);
    // The list stream (or the poll) brings the suspension.
    await row.getByTestId('row-overlay').filter({ hasText: /suspended/i }).waitFor();
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      await page.setViewportSize(viewport);
      await assertFitsViewport(page, `layout-suspended-row-${viewport.width}`);
      const seen = await row.getByTestId('match-odds').evaluate((odds) => {
        const band = /** @type {HTMLElement} */ (odds.querySelector('[data-testid="row-overlay"]')).getBoundingClientRect();
        const box = odds.getBoundingClientRect();
        const prices = Array.from(odds.querySelectorAll('.odds')).filter((p) => getComputedStyle(p).visibility === 'visible');
        return { covers: band.left <= box.left + 1 && band.right >= box.right - 1, visiblePrices: prices.length };
      });
      assert.deepEqual(seen, { covers: true, visiblePrices: 0 }, `at ${viewport.width} px`);
    }
    await page.setViewportSize(VIEWPORTS.desktop);

    await row.locator('a.match-link').click();
    const market = page.locator(`[data-testid="market"][data-market-id="${match.odds.market_id}"]`);
    await market.getByTestId('status-overlay').first().waitFor();
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      await page.setViewportSize(viewport);
      await assertFitsViewport(page, `layout-suspended-market-${viewport.width}`);
      const runners = await market.getByTestId('runner').evaluateAll((els) =>
        els.map((runner) => {
          const prices = runner.querySelector('.row-prices');
          const band = prices?.querySelector('[data-testid="status-overlay"]')?.getBoundingClientRect();
          const box = prices?.getBoundingClientRect();
          const visible = Array.from(runner.querySelectorAll('.price-cell')).filter((p) => getComputedStyle(p).visibility === 'visible');
          return { band: Boolean(band && box && band.left <= box.left + 1 && band.right >= box.right - 1), visiblePrices: visible.length };
        }),
      );
      assert.ok(runners.length > 0);
      assert.deepEqual(runners.filter((r) => !r.band || r.visiblePrices > 0), [], `at ${viewport.width} px`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await server.api('admin/market/status', { market_id: match.odds.market_id, status: 'open' }, adminToken);
  }
});

test('the search dropdown closes on a click outside and finds casino games', async () => {
  const { page, errors } = await loggedIn();
  await open(page, '/', 'home-page');
  await page.getByTestId('search-toggle').click();
  await page.getByTestId('search-input').fill('India');
  await page.getByTestId('search-results').getByTestId('search-result').first().waitFor();
  await page.getByTestId('site-message').click();
  await page.getByTestId('search-results').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('search-input').inputValue(), 'India');

  await page.getByTestId('search-input').fill('TP 1');
  const casino = page.getByTestId('search-group').filter({ has: page.getByRole('heading', { name: 'Casino' }) });
  await casino.getByTestId('search-result').first().click();
  await page.getByTestId('casino-table').waitFor();
  assert.match(new URL(page.url()).hash, /^#\/casino\/match\/\d+$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the casino lobby shows every table's art filling its tile at 1280 and 390 px, under no 'live' category", async () => {
  const { page, errors } = await loggedIn();
  await open(page, '/casino/list', 'casino-list-page');
  // The categories come after the page's frame: wait for them, then read them all.
  await page.getByTestId('casino-category').first().waitFor();
  const tabs = await page.getByTestId('casino-category').allInnerTexts();
  assert.ok(tabs.length > 0);
  assert.deepEqual(tabs.filter((t) => /\blive\b/i.test(t)), [], 'the computer-dealt tables are not live');
  const tiles = page.getByTestId('casino-games').locator('a.game-tile');
  await tiles.nth(15).waitFor();
  assert.equal(await tiles.count(), 16);
  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    await page.setViewportSize(viewport);
    for (let i = 0; i < 16; i += 1) {
      // The pictures load lazily: bring each one into view and wait for it to be drawn.
      const art = tiles.nth(i).locator('img');
      await art.scrollIntoViewIfNeeded();
      await art.evaluate(
        (img) =>
          new Promise((resolve, reject) => {
            const image = /** @type {HTMLImageElement} */ (img);
            if (image.complete && image.naturalWidth > 0) return resolve(null);
            image.addEventListener('load', () => resolve(null), { once: true });
            image.addEventListener('error', () => reject(new Error(`${image.src} did not load`)), { once: true });
          }),
      );
    }
    const pictures = await tiles.evaluateAll((links) =>
      links.map((link) => {
        const img = /** @type {HTMLImageElement} */ (link.querySelector('img'));
        const tile = link.getBoundingClientRect();
        const box = img.getBoundingClientRect();
        return { name: link.textContent, src: img.getAttribute('src'), drawn: img.naturalWidth > 0, tileWidth: tile.width, width: box.width, height: box.height };
      }),
    );
    for (const p of pictures) {
      assert.match(p.src ?? '', /^\/casino\/art\/[a-z0-9]+\.svg$/, `${p.name}`);
      assert.ok(p.drawn, `${p.name}'s art is drawn`);
      assert.ok(Math.abs(p.width - p.tileWidth) <= 1, `${p.name}'s art fills its tile's width`);
      assert.ok(Math.abs(p.height - (p.width * 11) / 16) <= 1, `${p.name}'s art keeps its 16:11`);
      // Roughly 160 px on a laptop's grid, two a row (~170 px) on a phone.
      assert.ok(p.width >= 140 && p.width <= 240, `${p.name} is ${p.width} px wide`);
    }
    assert.equal(new Set(pictures.map((p) => p.src)).size, 16, 'each table has its own art');
    await assertFitsViewport(page, `layout-casino-lobby-${viewport.width}`);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  assert.deepEqual(errors, []);
  await page.close();
});

test('sign-up refuses a 9-digit Indian mobile number', async () => {
  const page = await freshPage('/login');
  await page.getByTestId('to-sign-up').click();
  await page.getByTestId('signup-submit').waitFor();
  assert.equal(await page.getByTestId('signup-country').inputValue(), 'IN');
  await page.getByTestId('signup-user-name').fill('ninedigits');
  await page.getByTestId('signup-mobile').fill('987654321');
  await page.getByTestId('signup-password').fill('Newbet@123');
  await page.getByTestId('signup-confirm-password').fill('Newbet@123');
  await page.getByTestId('signup-submit').click();
  await page.getByText('A mobile number in India has 10 digits.').waitFor();
  await assertFitsEveryViewport(page, 'layout-signup-nine-digits');
  assert.match(new URL(page.url()).hash, /^#\/sign-up/);
  await page.close();
});
