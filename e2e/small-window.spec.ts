import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings, isBlocking } from './helpers/axe.js';
import { browserMissing, launchBrowser, openPage, pageProblems, saveScreenshot } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { seedLivedInHome } from './helpers/lived-in-home.js';
import { NOW } from './helpers/memory-home.js';

const missing = browserMissing();
if (missing) console.warn(`e2e small-window: skipped: ${missing}`);

/** Waiting for the page to settle, not a time limit on it. */
const SETTLE = { timeout: 30_000 };
const WINDOW = { width: 800, height: 600 };

/** How far the page and the given elements scroll sideways (0 when everything fits). */
function sidewaysOverflow(page: Page, selectors: string[] = []): Promise<Record<string, number>> {
  return page.evaluate((list) => {
    const over = (el: Element) => el.scrollWidth - el.clientWidth;
    const result: Record<string, number> = { page: over(document.documentElement) };
    for (const selector of list)
      for (const el of Array.from(document.querySelectorAll(selector))) result[selector] = Math.max(result[selector] ?? 0, over(el));
    return result;
  }, selectors);
}

/**
 * An 800×600 window against a real `kioku daemon --web`: the navigation folds into a rail of icons
 * with a toggle, the timeline's first memory is on screen without scrolling, the mind map fits,
 * and no view scrolls sideways. Pictures: e2e/screenshots/<view>-800x600.png.
 */
describe.skipIf(Boolean(missing))('a small window (800×600)', () => {
  let browser: Browser;
  let daemon: RunningDaemon;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await startDaemon({ env: { KIOKU_NOW: NOW }, prepare: (home) => seedLivedInHome(home) });
    ({ context, page } = await openPage(browser, daemon.url, { viewport: WINDOW }));
  });
  afterAll(async () => {
    await context?.close();
    await daemon?.stop();
    await browser?.close();
  });

  const toggle = () => page.getByRole('button', { name: '導覽選單' });
  const go = async (hash: string) => {
    await page.evaluate((target) => (window.location.hash = target), hash);
    await page.locator('main h1').first().waitFor();
    await expect.poll(() => page.locator('main .loading, main [aria-busy="true"]').count(), SETTLE).toBe(0);
  };

  it('starts with the navigation folded into a rail of icons whose links keep their names', async () => {
    await go('#/timeline');
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
    const rail = await page.getByRole('navigation', { name: '主要導覽' }).boundingBox();
    expect(rail!.width).toBeLessThanOrEqual(80); // was 248 px, 31 % of the window
    // The labels are hidden from sight, not from screen readers.
    await page.getByRole('link', { name: '設定' }).waitFor();
    expect(
      await page
        .getByText('記憶時間軸', { exact: true })
        .first()
        .evaluate((el) => el.getBoundingClientRect().width),
    ).toBeLessThanOrEqual(1);
  });

  it('shows the first memory of the timeline without scrolling', async () => {
    const first = page.locator('.memory-row').first();
    await first.waitFor();
    // Taken first: when the row is not in the picture, the picture shows what is in its way.
    await saveScreenshot(page, 'timeline-800x600', { fullPage: false });
    const box = (await first.boundingBox())!;
    const strip = (await page.locator('.status-strip').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(strip.y + strip.height);
    expect(box.y + box.height).toBeLessThanOrEqual(WINDOW.height);
    expect(await sidewaysOverflow(page)).toEqual({ page: 0 });
    // The rail and the folded chart and filters meet WCAG AA as the wide layout does.
    expect((await axeFindings(page)).filter(isBlocking).map((finding) => finding.line)).toEqual([]);
  });

  it('opens the full navigation over the view with the toggle, and closes it with Escape or a link', async () => {
    const before = (await page.locator('main').boundingBox())!;
    await toggle().click();
    expect(await toggle().getAttribute('aria-expanded')).toBe('true');
    const label = page.locator('.nav-label', { hasText: '睡眠紀錄' });
    expect(await label.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(20);
    expect((await page.locator('main').boundingBox())!.x).toBe(before.x); // over the view, not pushing it
    await saveScreenshot(page, 'nav-open-800x600', { fullPage: false });
    expect((await axeFindings(page)).filter(isBlocking).map((finding) => finding.line)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
    expect(await toggle().evaluate((el) => el === document.activeElement)).toBe(true);
    await toggle().click();
    await page.getByRole('link', { name: '睡眠紀錄' }).click();
    await page.getByRole('heading', { name: '睡眠紀錄', level: 1 }).waitFor();
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
  });

  it('fits the mind map without sideways scrolling', async () => {
    await go('#/mindmap');
    const svg = page.getByTestId('mindmap-svg');
    await svg.waitFor();
    expect(await sidewaysOverflow(page, ['.mindmap-canvas'])).toEqual({ page: 0, '.mindmap-canvas': 0 });
    const canvas = (await page.locator('.mindmap-canvas').boundingBox())!;
    const drawing = (await svg.boundingBox())!;
    expect(drawing.x).toBeGreaterThanOrEqual(canvas.x);
    expect(drawing.x + drawing.width).toBeLessThanOrEqual(canvas.x + canvas.width);
    await saveScreenshot(page, 'mindmap-800x600', { fullPage: false });
  });

  for (const hash of ['#/roles', `#/roles/new`, '#/sleep', '#/bonds', '#/journal', '#/facts', '#/status', '#/settings']) {
    it(`does not scroll sideways: ${hash}`, async () => {
      await go(hash);
      expect(await sidewaysOverflow(page)).toEqual({ page: 0 });
      expect(pageProblems(page)).toEqual([]);
    });
  }
});
