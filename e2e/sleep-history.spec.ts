import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser, openPage, pageProblems, saveScreenshot } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { CONSOLIDATED, INBOX, NOW, ROLE, createEngineerRole, writeHistory, writeSamples } from './helpers/memory-home.js';

/** Waiting for the page to settle, not a time limit on it (the first search builds the index). */
const SETTLE = { timeout: 30_000 };

const missing = browserMissing();
if (missing) console.warn(`e2e sleep history: skipped: ${missing}`);

/**
 * Sleep history and bonds in Chromium against a real `kioku daemon --web`: three items in the
 * inbox, "Sleep now" (confirmed), a real consolidation on the daemon's worker thread with the
 * built-in local planner, and its digest appearing at the top of the history.
 */
describe.skipIf(Boolean(missing))('sleep history and bonds', () => {
  let browser: Browser;
  let daemon: RunningDaemon;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await startDaemon({
      // The local planner (X-LOCAL): deterministic and without any LLM on this machine.
      env: { KIOKU_NOW: NOW, ROLE_CLI: 'local' },
      prepare: (home) => {
        const role = createEngineerRole(home);
        writeSamples(home, role, [...CONSOLIDATED, ...INBOX.slice(0, 3)]);
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

  const inbox = () => fs.readdirSync(path.join(daemon.home.memoryHome, ROLE, 'inbox')).filter((name) => name.endsWith('.md'));
  const digests = () => page.getByTestId('digest');

  it('shows the digests newest first with their counts, and the sleep state', async () => {
    await page.evaluate(() => (window.location.hash = '#/sleep'));
    await page.getByRole('heading', { name: '睡眠紀錄', level: 1 }).waitFor();
    await expect.poll(() => digests().count(), SETTLE).toBe(2);
    const first = await digests().first().innerText();
    expect(first).toContain('部署流程合併成一則');
    expect(first).toMatch(/2\s*新增/);
    expect(first).toMatch(/1\s*合併/);
    expect(await page.getByTestId('sleep-history-state').innerText()).toMatch(/清醒|睡眠中/);
  });

  it('"Sleep now" asks first, consolidates the three inbox items, and the new digests and the last sleep appear', async () => {
    expect(inbox()).toHaveLength(3);
    const lastSleep = page.getByTestId('last-sleep');
    expect(await lastSleep.innerText()).toBe('還沒整理過');
    await page.getByRole('button', { name: '現在睡覺' }).click();
    const dialog = page.getByRole('dialog', { name: /現在讓 小豹 睡覺整理記憶/ });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(inbox()).toHaveLength(3);

    await page.getByRole('button', { name: '現在睡覺' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '開始整理' }).click();
    await page.getByTestId('sleep-result').waitFor({ timeout: 45_000 });
    expect(await page.getByTestId('sleep-result').innerText()).toContain('處理 3 則待整理項目');
    // One digest for the plan, one for what faded (two old, low-priority episodic memories).
    await expect.poll(() => digests().count(), SETTLE).toBe(4);
    // The new entries are first, at the daemon's clock (KIOKU_NOW); the older ones follow.
    expect(await digests().first().locator('time').getAttribute('datetime')).toMatch(/^2026-11-30T14:00:00/);
    expect(await digests().first().innerText()).toContain('遺忘了 2 則');
    expect(await digests().nth(2).innerText()).toContain('部署流程合併成一則');
    expect(inbox()).toEqual([]);
    // 上次整理 follows: the role's last sleep, and why it ran.
    await expect.poll(() => lastSleep.innerText(), SETTLE).toContain('手動整理');
    expect(await lastSleep.innerText()).toMatch(/2026/);
    const file = fs.readFileSync(path.join(daemon.home.memoryHome, ROLE, 'DIGESTS.md'), 'utf8');
    expect(file.indexOf('## 2026/11/30 14:00:00')).toBeGreaterThan(0);
    expect(file.indexOf('## 2026/11/30 14:00:00')).toBeLessThan(file.indexOf('## 2026/11/29 03:00:12'));
    await saveScreenshot(page, 'sleep');
    expect(pageProblems(page)).toEqual([]);
  });

  it('opens a digest into the memories it created (linked to the timeline) and the ones it forgot', async () => {
    const plan = digests().nth(1);
    await plan.getByRole('button', { name: '看這次動到哪些記憶' }).click();
    const created = plan.locator('[data-list="created"] a');
    await expect.poll(() => created.count(), SETTLE).toBeGreaterThan(0);
    // Every link names a memory file that exists.
    for (const href of await created.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))) {
      const [, role, id] = /^#\/timeline\/([^/]+)\/(.+)$/.exec(href) ?? [];
      expect(role).toBe(ROLE);
      const files = fs.readdirSync(path.join(daemon.home.memoryHome, ROLE), { recursive: true, encoding: 'utf8' });
      expect(files.some((name) => name.endsWith(`${decodeURIComponent(id!)}.md`) && !name.startsWith('inbox'))).toBe(true);
    }
    const forgetting = digests().first();
    await forgetting.getByRole('button', { name: '看這次動到哪些記憶' }).click();
    const forgotten = forgetting.locator('[data-list="forgotten"]');
    await forgotten.waitFor();
    expect(await forgotten.innerText()).toContain('早上聊到喜歡淺焙的衣索比亞咖啡');
    expect(await forgotten.innerText()).toContain('archive/forgotten/m-coffee');
    // An entry written before the lists were kept still opens, and says so.
    const old = digests().last();
    await old.getByRole('button', { name: '看這次動到哪些記憶' }).click();
    expect(await old.innerText()).toContain('沒有保存逐則清單');
    const close = page.getByRole('button', { name: '關閉通知' });
    while ((await close.count()) > 0) await close.first().click();
    await saveScreenshot(page, 'sleep-digest');

    // A created memory's link opens the timeline on that memory.
    const first = created.first();
    const summary = await first.innerText();
    await first.click();
    await page.getByRole('heading', { name: '記憶時間軸', level: 1 }).waitFor();
    await expect
      .poll(
        async () => (await page.locator('.memory-detail-summary').count()) > 0 && page.locator('.memory-detail-summary').innerText(),
        SETTLE,
      )
      .toBe(summary);
    expect(page.url()).toMatch(/#\/timeline\/ENGINEER01\//);
    expect(pageProblems(page)).toEqual([]);
    await page.evaluate(() => (window.location.hash = '#/sleep'));
  });

  it('shows the bonds newest first with their direction, and no totals', async () => {
    await page.getByRole('link', { name: '關係' }).click();
    await page.getByRole('heading', { name: '關係', level: 1 }).waitFor();
    await expect.poll(() => page.getByTestId('bond').count(), SETTLE).toBeGreaterThanOrEqual(4);
    const bonds = await page.getByTestId('bond').allInnerTexts();
    expect(bonds[bonds.length - 1]).toContain('今天是麻糬的生日');
    const mutual = bonds.find((text) => text.includes('一起把部署流程整理好了'));
    expect(mutual).toContain('相互');
    expect(bonds.find((text) => text.includes('擔心他最近睡不好'))).toContain('角色→使用者');
    // MEM-7: never a count of affection anywhere on the page.
    expect(await page.locator('main').innerText()).not.toMatch(/\d+\s*(則|筆|次)關係|共\s*\d+/);
    // The "consolidation done" notice of the last test would cover the list in the picture.
    for (const close of await page.getByRole('button', { name: '關閉通知' }).all()) await close.click();
    await saveScreenshot(page, 'bonds');
    expect(pageProblems(page)).toEqual([]);
  });
});
