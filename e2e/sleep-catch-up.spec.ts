import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../main/core/platform/config/clock.js';
import { updateMemoryState } from '../main/core/store/memory/memory-state.js';
import { browserMissing, launchBrowser, openPage, pageProblems, saveScreenshot } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { CONSOLIDATED, INBOX, NOW, createEngineerRole, writeSamples } from './helpers/memory-home.js';

const missing = browserMissing();
if (missing) console.warn(`e2e sleep catch-up: skipped: ${missing}`);

/** The catch-up runs on the daemon's worker thread after it starts; this waits for it, it is no time limit. */
const SETTLE = { timeout: 60_000 };

/**
 * The catch-up at daemon start (CTX-8: more than 20 hours since the last sleep and something in
 * the inbox) in Chromium against a real `kioku daemon --web` with its schedule on: the history
 * shows that consolidation as a catch-up, says what that means, and opens into its memories.
 */
describe.skipIf(Boolean(missing))('the catch-up consolidation at daemon start', () => {
  let browser: Browser;
  let daemon: RunningDaemon;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await startDaemon({
      // The schedule on (the helper turns it off by default); the local planner, no LLM.
      env: { KIOKU_NOW: NOW, ROLE_CLI: 'local', KIOKU_NO_SCHEDULE: '' },
      prepare: (home) => {
        const role = createEngineerRole(home);
        writeSamples(home, role, [...CONSOLIDATED.slice(0, 4), ...INBOX.slice(0, 2)]);
        // Two days since the last sleep: the daemon catches up as soon as it starts.
        updateMemoryState(home.memoryHome, role, fixedClock('2026-11-28T03:00:00+08:00'), (state) => ({
          ...state,
          last_sleep: '2026-11-28T03:00:00+08:00',
        }));
      },
    });
    ({ context, page } = await openPage(browser, daemon.url));
  });
  afterAll(async () => {
    await context?.close();
    await daemon?.stop();
    await browser?.close();
  });

  it('is shown as a catch-up, with what it created', async () => {
    await page.evaluate(() => (window.location.hash = '#/sleep'));
    await page.getByRole('heading', { name: '睡眠紀錄', level: 1 }).waitFor();
    const first = page.getByTestId('digest').first();
    await expect
      .poll(async () => ((await page.getByTestId('digest').count()) > 0 ? first.getAttribute('data-reason') : null), SETTLE)
      .toBe('catch-up');
    expect(await first.innerText()).toContain('補做的整理');
    expect(await first.innerText()).toContain('Kioku 啟動或開新工作階段時先補做了這次整理');
    await expect.poll(() => page.getByTestId('last-sleep').innerText(), SETTLE).toContain('補做的整理');
    await first.getByRole('button', { name: '看這次動到哪些記憶' }).click();
    const created = first.locator('[data-list="created"] a');
    await expect.poll(() => created.allInnerTexts(), SETTLE).toEqual(expect.arrayContaining(['今天在研究 React 虛擬清單']));
    await saveScreenshot(page, 'sleep-catch-up');
    expect(pageProblems(page)).toEqual([]);
  });
});
