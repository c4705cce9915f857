import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprints } from '../test/helpers/memory-fixtures.js';
import { browserMissing, launchBrowser, openPage, pageProblems, saveScreenshot } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { CONSOLIDATED, INBOX, NOW, ROLE, createEngineerRole, writeHistory, writeSamples } from './helpers/memory-home.js';

/** Waiting for the page to settle, not a time limit on it (the first search builds the index). */
const SETTLE = { timeout: 30_000 };

const missing = browserMissing();
if (missing) console.warn(`e2e timeline: skipped: ${missing}`);

/**
 * The memory timeline in Chromium against a real `kioku daemon --web`: thirty memories of one
 * role, a Chinese search, a type filter, the detail panel and its links; and the search must
 * leave the memory files as they were (a UI search is not the role recalling).
 */
describe.skipIf(Boolean(missing))('the memory timeline', () => {
  let browser: Browser;
  let daemon: RunningDaemon;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await startDaemon({
      env: { KIOKU_NOW: NOW },
      prepare: (home) => {
        const role = createEngineerRole(home);
        writeSamples(home, role, [...CONSOLIDATED, ...INBOX]);
        writeHistory(home, role);
      },
    });
    ({ context, page } = await openPage(browser, daemon.url));
  });
  afterAll(async () => {
    await context?.close();
    await daemon?.stop();
    await browser?.close();
  });

  const row = (id: string) => page.locator(`.memory-row[data-memory-id="${id}"]`);
  const count = () => page.locator('.timeline-count').innerText();

  it('lists every memory and inbox item newest first, with the weekly chart', async () => {
    await page.evaluate(() => (window.location.hash = '#/timeline'));
    await page.getByRole('heading', { name: '記憶時間軸', level: 1 }).waitFor();
    await row('i-backoff').waitFor();
    expect(await count()).toContain(`共 ${CONSOLIDATED.length + INBOX.length} 則`);
    // Newest first: the first rows are today's inbox items, in time order.
    const first = await page.locator('.memory-row').evaluateAll((rows) => rows.slice(0, 3).map((r) => r.getAttribute('data-memory-id')));
    expect(first).toEqual(['i-backoff', 'i-noodles', 'i-make']);
    expect(await row('i-backoff').locator('.clarity-mark').getAttribute('aria-label')).toContain('待整理');
    expect(await row('m-thanks').locator('.clarity-mark').getAttribute('aria-label')).toBe('清晰');
    await expect.poll(() => page.locator('.chart-segment').count(), SETTLE).toBeGreaterThan(5);
    expect(await page.locator('.chart-legend').innerText()).toContain('程序');
    // The list is virtualized: the picture is of the window (tall enough for the chart and rows).
    await page.setViewportSize({ width: 1280, height: 1400 });
    await saveScreenshot(page, 'timeline', { fullPage: false });
  });

  it('moves through the virtualized rows with the keyboard; the oldest memory has gone fuzzy', async () => {
    await row('i-backoff').focus();
    await page.keyboard.press('End');
    // m-coffee (early October, priority 2, never recalled) is the oldest: rendered only once scrolled to.
    await row('m-coffee').waitFor();
    expect(await row('m-coffee').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await row('m-coffee').locator('.clarity-mark').getAttribute('aria-label')).toBe('模糊');
    await page.keyboard.press('Home');
    await expect.poll(() => row('i-backoff').evaluate((el) => el === document.activeElement), SETTLE).toBe(true);
  });

  it('finds 部署 with the Chinese search, without writing anything into the memory files', async () => {
    const roleDir = path.join(daemon.home.memoryHome, ROLE);
    const before = fingerprints(roleDir);
    await page.getByRole('searchbox', { name: '搜尋記憶' }).fill('部署');
    await expect.poll(count, SETTLE).toContain('找到 1 則符合「部署」');
    expect(await page.locator('.memory-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-memory-id')))).toEqual([
      'm-deploy',
    ]);
    expect(fingerprints(roleDir)).toEqual(before);
    await page.getByRole('searchbox', { name: '搜尋記憶' }).fill('');
    await expect.poll(count, SETTLE).toContain('共 30 則');
  });

  it('filters by memory type', async () => {
    const procedural = [...CONSOLIDATED, ...INBOX].filter((m) => m.type === 'procedural').map((m) => m.id);
    await page.getByRole('group', { name: '類型' }).getByRole('button', { name: '程序' }).click();
    await expect.poll(count, SETTLE).toContain(`共 ${procedural.length} 則`);
    const shown = await page.locator('.memory-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-memory-id')));
    expect([...shown].sort()).toEqual([...procedural].sort());
    for (const badge of await page.locator('.memory-row .type-badge').allInnerTexts()) expect(badge).toContain('程序');
    await page.getByRole('button', { name: '清除篩選' }).click();
    await expect.poll(count, SETTLE).toContain('共 30 則');
  });

  it('opens a memory: body as text, links that open the linked memory, cues and strength', async () => {
    await row('m-deploy').click();
    const detail = page.getByTestId('memory-detail');
    await detail.getByRole('heading', { name: '正式環境部署要先跑 smoke test 再切換流量' }).waitFor();
    const text = await detail.innerText();
    expect(text).toContain('部署流程固定三步。');
    expect(text).toContain('切換後觀察十分鐘的錯誤率');
    expect(text).not.toMatch(/memory_type:|^---$/m); // never the raw file
    expect(text).toContain('84／100');
    expect(text).toContain('切換流量');
    expect(text).toContain('已不存在的記憶（m-old-script）');
    await page.setViewportSize({ width: 1280, height: 1760 }); // the whole panel, below the chart and filters
    await saveScreenshot(page, 'memory-detail', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 1400 });
    await detail.getByRole('button', { name: /回滾指令記在 runbook 第二節/ }).click();
    await detail.getByRole('heading', { name: '回滾指令記在 runbook 第二節' }).waitFor();
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    expect(pageProblems(page)).toEqual([]);
    expect(fs.existsSync(path.join(daemon.home.memoryHome, ROLE, 'important', 'm-deploy.md'))).toBe(true);
  });
});
