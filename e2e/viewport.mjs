// @ts-check
// Does the page fit the screen? A bettor on a phone must never have to scroll sideways to reach
// a price or a column, so every journey checks its pages at both widths:
//
//   await page.setViewportSize(VIEWPORTS.phone);
//   await assertFitsViewport(page, 'home-390');     // fails naming what sticks out; saves
//                                                   // e2e/screenshots/home-390.png
//   await assertFitsEveryViewport(page, 'home');    // both widths, home-1280 and home-390,
//                                                   // and leaves the page at desktop width
//
// What counts as sticking out: the document scrolling sideways, or any visible element whose
// box is wider than the viewport or reaches past its right edge. A container meant to scroll
// sideways (a wide report table kept inside the screen) says so with the `data-scroll-x`
// attribute: it is measured by its own box, and what it holds may be as wide as it likes. A
// container that scrolls sideways *without* the attribute is reported, because that is how an
// accidental overflow usually hides. Content clipped away (`overflow-x: hidden` or `clip` on an
// ancestor) cannot be seen and is not measured.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { SHOTS_DIR, settled } from './harness.mjs';

/** The two screens every layout is checked on: a laptop and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
};

/** Sub-pixel rounding of layout boxes is not an overflow. */
const TOLERANCE_PX = 1;
/** At most this many offenders are listed in a failure; the count says how many there were. */
const LIST_LIMIT = 15;

/**
 * @typedef {object} Offender
 * @property {string} selector  a short CSS path to the element, e.g. `main > div.odds-grid[data-testid="match-row"]`
 * @property {number} width     its box's width in px
 * @property {number} right     where its box ends, in px from the viewport's left edge
 * @property {string} why       what is wrong with it
 */

/**
 * Fails when the page at its current viewport is wider than the viewport: the document scrolls
 * sideways, or a visible element is wider or reaches past the right edge. The message lists the
 * offending elements' selectors and widths. Saves a screenshot as `e2e/screenshots/<label>.png`
 * first, so a failure can be looked at.
 * @param {import('playwright-core').Page} page
 * @param {string} label  the screenshot's file name, without `.png`
 */
export async function assertFitsViewport(page, label) {
  await settled(page);
  await mkdir(SHOTS_DIR, { recursive: true });
  // Animations that never end (the site message's marquee, a spinner) are held at their start.
  await page.screenshot({ path: path.join(SHOTS_DIR, `${label}.png`), animations: 'disabled' });
  const report = await page.evaluate(measureOverflow, { tolerancePx: TOLERANCE_PX, listLimit: LIST_LIMIT });
  if (report.offenders.length === 0 && report.documentWidth <= report.viewportWidth + TOLERANCE_PX) return;
  const lines = report.offenders.map((o) => `  ${o.selector}: ${o.why} (width ${o.width}px, right edge ${o.right}px)`);
  const more = report.total > report.offenders.length ? [`  … and ${report.total - report.offenders.length} more`] : [];
  throw new Error(
    [
      `${label}: the page is wider than the ${report.viewportWidth}px viewport ` +
        `(document ${report.documentWidth}px wide, ${report.total} element(s) stick out); ` +
        `see ${path.join(SHOTS_DIR, `${label}.png`)}`,
      ...lines,
      ...more,
    ].join('\n'),
  );
}

/**
 * Checks the page at each of VIEWPORTS (as `<name>-1280` and `<name>-390`) and leaves it at the
 * desktop width.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
export async function assertFitsEveryViewport(page, name) {
  try {
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      await page.setViewportSize(viewport);
      await assertFitsViewport(page, `${name}-${viewport.width}`);
    }
  } finally {
    await page.setViewportSize(VIEWPORTS.desktop);
  }
}

/**
 * Runs in the page: measures the document and every visible element against the viewport.
 * @param {{ tolerancePx: number, listLimit: number }} limits
 * @returns {{ viewportWidth: number, documentWidth: number, total: number, offenders: Offender[] }}
 */
function measureOverflow({ tolerancePx, listLimit }) {
  const viewportWidth = document.documentElement.clientWidth;
  const documentWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);

  /** A readable, short CSS path: up to three steps, each tag, test id or id, and two classes. @param {Element} element */
  const selectorOf = (element) => {
    /** @type {string[]} */
    const steps = [];
    for (let node = /** @type {Element | null} */ (element); node && steps.length < 3 && node !== document.body; node = node.parentElement) {
      let step = node.tagName.toLowerCase();
      const testId = node.getAttribute('data-testid');
      if (node.id) step += `#${node.id}`;
      const classes = Array.from(node.classList).slice(0, 2);
      if (classes.length) step += `.${classes.join('.')}`;
      if (testId) step += `[data-testid="${testId}"]`;
      steps.unshift(step);
      if (node.id || testId) break;
    }
    return steps.join(' > ');
  };

  /** Whether the element takes space on screen and can be seen. @param {Element} element */
  const visible = (element) => {
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return false;
    const style = getComputedStyle(element);
    return style.visibility !== 'hidden' && style.display !== 'contents' && Number(style.opacity) > 0;
  };

  /**
   * Elements under a container that clips or scrolls sideways are that container's business;
   * html and body are not such containers (their overflow is the document's, measured above).
   * @param {Element} element
   */
  const insideSidewaysContainer = (element) => {
    for (let node = element.parentElement; node && node !== document.body && node !== document.documentElement; node = node.parentElement) {
      if (node.hasAttribute('data-scroll-x')) return true;
      const overflowX = getComputedStyle(node).overflowX;
      if (overflowX !== 'visible') return true;
    }
    return false;
  };

  /** @type {Offender[]} */
  const offenders = [];
  let total = 0;
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    if (!visible(element) || insideSidewaysContainer(element)) continue;
    const rect = element.getBoundingClientRect();
    /** @type {string[]} */
    const why = [];
    if (rect.width > viewportWidth + tolerancePx) why.push('wider than the viewport');
    else if (rect.right > viewportWidth + tolerancePx) why.push('reaches past the right edge');
    const overflowX = getComputedStyle(element).overflowX;
    const scrollsSideways = (overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + tolerancePx;
    if (scrollsSideways && !element.hasAttribute('data-scroll-x')) {
      why.push(`scrolls sideways (content ${element.scrollWidth}px in ${element.clientWidth}px) without data-scroll-x`);
    }
    if (why.length === 0) continue;
    total += 1;
    if (offenders.length < listLimit) {
      offenders.push({ selector: selectorOf(element), width: Math.round(rect.width), right: Math.round(rect.right), why: why.join('; ') });
    }
  }
  return { viewportWidth, documentWidth, total, offenders };
}
