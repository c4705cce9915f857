import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings, isBlocking, type AxeFinding } from './helpers/axe.js';
import { browserMissing, launchBrowser, openPage, pageProblems } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { seedLivedInHome } from './helpers/lived-in-home.js';
import { NOW, ROLE } from './helpers/memory-home.js';

const missing = browserMissing();
if (missing) console.warn(`e2e accessibility: skipped: ${missing}`);

/** Waiting for a view to finish loading, not a time limit on it. */
const SETTLE = { timeout: 30_000 };

/** Every view of the app's routes (renderer/src/app/routes.ts), the role pages and the memory detail. */
const VIEWS: { name: string; hash: string; open?: (page: Page) => Promise<void> }[] = [
  { name: 'roles', hash: '#/roles' },
  { name: 'role-create', hash: '#/roles/new' },
  { name: 'role-edit', hash: `#/roles/${ROLE}/edit` },
  { name: 'role-emoji', hash: `#/roles/${ROLE}/emoji` },
  { name: 'timeline', hash: '#/timeline' },
  {
    name: 'memory-detail',
    hash: '#/timeline',
    open: async (page) => {
      await page.locator('.memory-row').first().click();
      await page.getByTestId('memory-detail').getByRole('heading', { level: 2 }).waitFor();
    },
  },
  { name: 'sleep', hash: '#/sleep' },
  { name: 'bonds', hash: '#/bonds' },
  { name: 'mindmap', hash: '#/mindmap' },
  { name: 'journal', hash: '#/journal' },
  { name: 'facts', hash: '#/facts' },
  { name: 'status', hash: '#/status' },
  { name: 'settings', hash: '#/settings' },
];

/** The view's heading is there and nothing in it is still loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await expect.poll(() => page.locator('main .loading, main [aria-busy="true"]').count(), SETTLE).toBe(0);
}

/** Tab stops checked from where a pass starts. */
const TAB_STOPS = 30;

/**
 * What axe cannot see: Tab through the page and check each stop shows a focus indicator (2.4.7:
 * an outline or ring on it, or on the wrapper it sits in) and is not covered by the sticky status
 * strip (2.4.11). From the view's start (main, where navigating puts focus) or from the top of a
 * freshly loaded page (skip link, navigation). Returns one line per problem.
 */
async function focusProblems(page: Page, from: 'main' | 'top'): Promise<string[]> {
  if (from === 'top') {
    await page.reload();
    await settled(page);
  } else await page.evaluate(() => document.getElementById('main-content')?.focus());
  const problems: string[] = [];
  for (let stop = 0; stop < TAB_STOPS; stop++) {
    await page.keyboard.press('Tab');
    const problem = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return 'end';
      const name = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
      const shows = (node: Element | null) => {
        if (!node) return false;
        const style = getComputedStyle(node);
        const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && style.outlineColor !== 'rgba(0, 0, 0, 0)';
        return outline || style.boxShadow !== 'none';
      };
      if (!shows(el) && !shows(el.parentElement)) return `no visible focus indicator on ${name}`;
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (hit && !el.contains(hit) && hit.closest('.status-strip')) return `${name} is hidden under the status strip`;
      return undefined;
    });
    if (problem === 'end') break;
    if (problem) problems.push(problem);
  }
  return problems;
}

/**
 * WCAG 2.2 AA by axe-core on every view, light and dark, against a real `kioku daemon --web` on a
 * home with content in every view: no serious or critical violation. A failure lists each one.
 */
describe.skipIf(Boolean(missing))('accessibility of every view (axe-core, WCAG 2.2 AA)', () => {
  let browser: Browser;
  let daemon: RunningDaemon;
  const tally: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await startDaemon({ env: { KIOKU_NOW: NOW }, prepare: (home) => seedLivedInHome(home) });
  });
  afterAll(async () => {
    if (tally.length) console.log(`axe findings per view (serious+critical / all):\n  ${tally.join('\n  ')}`);
    await daemon?.stop();
    await browser?.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    describe(`${theme} theme`, () => {
      let context: BrowserContext;
      let page: Page;

      beforeAll(async () => {
        ({ context, page } = await openPage(browser, daemon.url, { colorScheme: theme }));
      });
      afterAll(async () => {
        await context?.close();
      });

      it('starts with a skip link that leads past the navigation to the view', async () => {
        await page.evaluate(() => (window.location.hash = '#/timeline'));
        await page.reload();
        await settled(page);
        await page.keyboard.press('Tab');
        const skip = page.getByRole('link', { name: '跳到主要內容' });
        expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
        const box = (await skip.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0); // shown while focused, not left off screen
        await page.keyboard.press('Enter');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
        expect(await page.evaluate(() => window.location.hash)).toBe('#/timeline'); // the route stays
        // The skip link, the navigation and the view's first controls all show where focus is.
        expect((await focusProblems(page, 'top')).join('\n')).toBe('');
      });

      for (const view of VIEWS) {
        it(view.name, async () => {
          await page.evaluate(() => (window.location.hash = '#/'));
          await page.evaluate((hash) => (window.location.hash = hash), view.hash);
          await settled(page);
          await view.open?.(page);
          // The palette under test really is this theme's (the app follows prefers-color-scheme).
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
          const findings: AxeFinding[] = await axeFindings(page);
          const blocking = findings.filter(isBlocking);
          tally.push(`${theme} ${view.name}: ${blocking.length} / ${findings.length}`);
          expect(blocking.map((finding) => finding.line).join('\n'), `${view.name} (${theme})`).toBe('');
          expect((await focusProblems(page, 'main')).join('\n'), `focus in ${view.name} (${theme})`).toBe('');
          expect(pageProblems(page)).toEqual([]);
        });
      }
    });
  }
});
