import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser, openPage, pageProblems, saveScreenshot } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { seedSampleRoles } from './helpers/seed-home.js';

const missing = browserMissing();
if (missing) console.warn(`e2e screenshots: skipped: ${missing}`);

/**
 * One picture of each main view (e2e/screenshots/<view>.png) on a home with five zh-TW roles,
 * for the closing note; each also checks the view rendered its real content.
 */
describe.skipIf(Boolean(missing))('screenshots of the main views', () => {
  let browser: Browser;
  let daemon: RunningDaemon;

  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await startDaemon({ env: { KIOKU_NOW: '2026-11-30T14:00:00+08:00' }, prepare: (home) => void seedSampleRoles(home) });
  });
  afterAll(async () => {
    await daemon?.stop();
    await browser?.close();
  });

  async function shoot(
    hash: string,
    ready: (page: Page) => Promise<unknown>,
    name: string,
    options: { locale?: string; colorScheme?: 'light' | 'dark'; before?: (page: Page) => Promise<void> } = {},
  ) {
    const { context, page } = await openPage(browser, daemon.url, options);
    try {
      await options.before?.(page);
      await page.evaluate((target) => (window.location.hash = target), hash);
      await ready(page);
      await saveScreenshot(page, name);
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }

  it('roles', async () => {
    await shoot('#/roles', (page) => page.locator('li[data-role-id="NIGHTOWL01"]').waitFor(), 'roles');
  });

  it('role-create', async () => {
    await shoot('#/roles/new', (page) => page.getByRole('heading', { name: '新增角色', level: 1 }).waitFor(), 'role-create');
  });

  it('role-edit-review (the ROLE-5 table)', async () => {
    await shoot(
      '#/roles/ENGINEER01/edit',
      async (page) => {
        await page.locator('[data-field="name"]').waitFor();
        await page.locator('[data-field="name"]').fill('小豹二代');
        await page.locator('[data-field="vibe"]').fill('更簡潔了，只講重點；偶爾吐槽。');
        await page.getByRole('button', { name: '檢視變更' }).click();
        await page.getByTestId('role-change-table').waitFor();
      },
      'role-edit-review',
    );
  });

  // timeline.png, memory-detail.png, sleep.png, sleep-digest.png and bonds.png are taken by
  // timeline.spec.ts and sleep-history.spec.ts, on a home with months of memories, digests and
  // bonds to show; next-session.png (with budgets under pressure) by next-session.spec.ts.
  for (const [view, title] of [
    ['journal', '日誌'],
    ['facts', '事實與專案記憶'],
  ] as const) {
    it(view, async () => {
      await shoot(`#/${view}`, (page) => page.getByRole('heading', { name: title, level: 1 }).waitFor(), view);
    });
  }

  it('preview (the next session), in English and dark', async () => {
    await shoot('#/preview', (page) => page.getByTestId('preview-part').first().waitFor(), 'preview-en-dark', {
      colorScheme: 'dark',
      before: async (page) => {
        await page.getByRole('link', { name: '設定' }).click();
        await page.getByRole('radio', { name: 'English' }).check();
        await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      },
    });
  });

  it('status', async () => {
    await shoot('#/status', (page) => page.getByRole('heading', { name: 'Kioku 服務' }).waitFor(), 'status');
  });

  it('settings', async () => {
    await shoot('#/settings', (page) => page.getByRole('heading', { name: '設定', level: 1 }).waitFor(), 'settings');
  });

  it('roles in English, dark', async () => {
    await shoot(
      '#/roles',
      async (page) => {
        await page.getByRole('heading', { name: 'Roles', level: 1 }).waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      },
      'roles-en-dark',
      {
        colorScheme: 'dark',
        before: async (page) => {
          await page.getByRole('link', { name: '設定' }).click();
          await page.getByRole('radio', { name: 'English' }).check();
          await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
        },
      },
    );
  });
});
