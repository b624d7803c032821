// One-off look at every table's deal and result (not a test): screenshots to /work/shots.
import { launchBrowser, newPage, startServer } from './harness.mjs';
const server = await startServer({ extraArgs: ['--no-demo-feed', '--casino-window-seconds', '10'] });
const games = ['teen20', 'teen', 'teen9', 'dt6', 'teen2', 'hilow', 'poker', 'queen', 'baccarat', 'aaa', 'btable', 'trio', 'ab20', 'teenmuf', 'roulette', 'worli'];
const groups = [games.slice(0, 6), games.slice(6, 11), games.slice(11)];
const widths = [{ width: 1280, height: 800 }, { width: 390, height: 844 }, { width: 1280, height: 800 }];
await Promise.all(groups.map(async (group, gi) => {
  const browser = await launchBrowser();
  const page = await newPage(browser);
  await page.setViewportSize(widths[gi]);
  await page.goto(`${server.baseUrl}/#/login`);
  await page.getByTestId('login-user-name').fill('demo');
  await page.getByTestId('login-password').fill('Demo@1234');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('welcome-popup').getByTestId('modal-close').click();
  for (const code of group) {
    await page.goto(`${server.baseUrl}/#/casino/match/${code}`);
    await page.getByTestId('casino-table').waitFor();
    await page.waitForFunction(() => /dealing/i.test(document.querySelector('[data-testid="casino-status"]')?.textContent ?? '') && document.querySelectorAll('[data-testid="casino-dealt-card"], .casino-seat-description:not(.muted)').length >= 1, undefined, { timeout: 60_000 }).catch(() => {});
    await page.waitForTimeout(700);
    await page.screenshot({ path: `/work/shots/${code}-dealing-${widths[gi].width}.png` });
    await page.getByTestId('casino-winner').waitFor({ timeout: 30_000 }).catch(() => {});
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/work/shots/${code}-result-${widths[gi].width}.png` });
  }
  await browser.close();
}));
await server.stop();
console.log('done');
