// @ts-check
// Three servers on one PostgreSQL (issue 16): a bettor's browser stays on one node while the
// market it bets on is run by another; that node is killed (SIGKILL) and the bettor's next bet,
// from the same page, is placed by the node that took the market over.
//
// PostgreSQL comes from BACKLAY_TEST_POSTGRES_URL (default: the `test` database on
// 127.0.0.1:5432 as user postgres), reached with psql to make and drop a fresh database. When it
// is unreachable the test is skipped, except under CI=true, where that is a failure.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, newPage, startServer } from '../harness.mjs';

const ADMIN_URL = process.env.BACKLAY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASE = `backlay_e2e_cluster_${process.pid}`;
const DATABASE_URL = `${ADMIN_URL.slice(0, ADMIN_URL.lastIndexOf('/'))}/${DATABASE}`;
/** A bet waits for its market's new owner: the lease (1 s) and the take-over. */
const TAKE_OVER_WAIT = { timeout: 20_000 };

/** @param {string} sql @param {string} [url] */
function psql(sql, url = ADMIN_URL) {
  return spawnSync('psql', [url, '-qAt', '-c', sql], { encoding: 'utf8' });
}

const reachable = psql('SELECT 1').status === 0;
if (!reachable && process.env.CI === 'true') {
  throw new Error(`PostgreSQL at ${ADMIN_URL} is unreachable under CI=true`);
}

/** @type {import('../harness.mjs').Server[]} */
const nodes = [];
/** @type {import('../harness.mjs').Browser | undefined} */
let browser;
let keyDir = '';

before(async () => {
  if (!reachable) return;
  assert.equal(psql(`CREATE DATABASE ${DATABASE}`).status, 0, 'the test database is made');
  keyDir = await mkdtemp(path.join(os.tmpdir(), 'backlay-e2e-cluster-'));
  const extraArgs = ['--secret-key-file', path.join(keyDir, 'secret.key'), '--create-secret-key',
    '--cluster-lease-ms', '1000', '--no-demo-feed', '--no-casino'];
  // One at a time: the first seeds the demo, the others join.
  for (let i = 0; i < 3; i += 1) nodes.push(await startServer({ databaseUrl: DATABASE_URL, extraArgs }));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  for (const node of nodes) await node.stop();
  if (reachable) psql(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  if (keyDir) await rm(keyDir, { recursive: true, force: true });
});

/** The base URL of the node that owns a market now. @param {number} marketId */
function ownerOf(marketId) {
  const answer = psql(
    `SELECT n.url FROM cluster_owners o JOIN cluster_nodes n ON n.node_id = o.node_id
     WHERE o.resource = 'market:${marketId}' AND n.expires_at_ms > (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT`,
    DATABASE_URL,
  );
  return answer.stdout.trim();
}

/**
 * The base URL of the node that owns a market, once one does: on a loaded machine a node's
 * lease (1 s here) may lapse for a moment before it renews it, and no live node owns the market
 * then. @param {number} marketId
 */
async function ownerOnceOwned(marketId) {
  const deadline = Date.now() + TAKE_OVER_WAIT.timeout;
  for (;;) {
    const owner = ownerOf(marketId);
    if (owner || Date.now() > deadline) return owner;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('a browser on one node bets on a market another runs, and goes on betting when that node is killed', { skip: !reachable && 'PostgreSQL is unreachable' }, async () => {
  const [first] = nodes;
  const admin = (await first.api('user/login', { user_name: 'admin', password: 'Admin@1234' })).body.data.token;
  /** @param {string} apiPath @param {unknown} body */
  const operator = async (apiPath, body) => {
    const answer = await first.api(apiPath, body, admin);
    assert.equal(answer.status, 200, `${apiPath}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  };
  const series = (await first.api('series/getSeries', { sport_id: 4, is_active: 1 }, admin)).body.data;
  const openDate = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  const match = (await operator('admin/match/create', { series_id: series[0].series_id, name: 'Falcons v Hawks', open_date: openDate })).id;
  const market = await operator('admin/market/create', { match_id: match, type: 'match_odds', name: 'Match Odds', runners: ['Falcons', 'Hawks'], bet_delay_s: 0 });
  await operator('admin/market/status', { market_id: market.market_id, status: 'open' });
  // The node that runs the market (the one the operator used, unless a loaded machine let its
  // lease lapse and another took it); the bettor is on another node, and the runner is killed.
  const ownerUrl = await ownerOnceOwned(market.market_id);
  const runner = nodes.find((node) => node.baseUrl === ownerUrl);
  assert.ok(runner, `a node runs the market (${ownerUrl})`);
  const third = nodes.find((node) => node !== runner);
  assert.ok(third, 'another node for the bettor');

  assert.ok(browser, 'the browser started');
  const page = await newPage(browser);
  await page.goto(`${third.baseUrl}/#/login`);
  await page.getByTestId('login-user-name').fill('demo');
  await page.getByTestId('login-password').fill('Demo@1234');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  await page.goto(`${third.baseUrl}/#/game-details/4/${match}`);
  await page.getByTestId('match-title').filter({ hasText: 'Falcons v Hawks' }).waitFor();
  const falcons = page.locator(`[data-testid="market"][data-market-id="${market.market_id}"] [data-testid="runner"][data-selection-id="${market.selection_ids[0]}"]`);

  const demo = (await third.api('user/login', { user_name: 'demo', password: 'Demo@1234' })).body.data.token;
  /** The bettor's unmatched bets on the market, read through the node the browser is on. */
  const waiting = async () => {
    const open = await third.api('bet/openBets', {}, demo);
    assert.equal(open.status, 200, JSON.stringify(open.body));
    return open.body.data.unmatched.filter((/** @type {{ market_id: number }} */ bet) => bet.market_id === market.market_id);
  };
  /** Backs Falcons at 3.00 from the page; answers the outcome once the bet is stored. @param {string} stake @param {number} count */
  const back = async (stake, count) => {
    await falcons.getByTestId('best-back').click();
    await page.getByTestId('slip-odds').fill('3.00');
    await page.getByTestId('slip-stake').fill(stake);
    await page.getByTestId('place-bet').click();
    const deadline = Date.now() + TAKE_OVER_WAIT.timeout;
    while ((await waiting()).length < count) {
      if (Date.now() > deadline) {
        const shown = await page.getByTestId('bet-outcome').innerText({ timeout: 1_000 }).catch(() => '(no outcome shown)');
        assert.fail(`bet ${count} was not placed; the page says: ${shown}\n${nodes.map((node) => node.logs()).join('\n')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return page.getByTestId('bet-outcome').innerText();
  };
  assert.match(await back('100', 1), /placed/i);

  await runner.kill9();
  assert.match(await back('200', 2), /placed/i, 'the bet after the kill');
  const owner = await ownerOnceOwned(market.market_id);
  assert.ok(owner && owner !== runner.baseUrl, `a surviving node runs the market (${owner})`);

  // The page on the node the browser never left shows both bets, 300 at 3.00, to lay on Falcons.
  await falcons.getByTestId('best-lay').filter({ hasText: '300' }).waitFor(TAKE_OVER_WAIT);
  assert.deepEqual((await waiting()).map((/** @type {{ stake: number }} */ bet) => bet.stake).sort(), [100, 200]);
});
