import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMemoryFixture } from '../test/helpers/memory-fixtures.js';
import { browserMissing, launchBrowser, openPage, pageProblems, saveScreenshot } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { CONSOLIDATED, NOW, ROLE, createEngineerRole, writeHistory, writeSamples } from './helpers/memory-home.js';
import { kioku } from './helpers/run-kioku.js';

const missing = browserMissing();
if (missing) console.warn(`e2e live files: skipped: ${missing}`);

/** Waiting for the watch (it looks every 1.5 s) and the page, not a time limit on them. */
const SETTLE = { timeout: 30_000 };

/**
 * Changes made outside the app reach the open views without a reload, in Chromium against a real
 * `kioku daemon --web`: `kioku journal append`, `kioku facts update` (also while the editor has
 * unsaved text, which is kept), `kioku project-memory update`, and `kioku sleep` (the status page
 * and the sleep history follow).
 */
describe.skipIf(Boolean(missing))('views follow changes made with the CLI', () => {
  let browser: Browser;
  let daemon: RunningDaemon;
  let context: BrowserContext;
  let page: Page;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await startDaemon({
      env: { KIOKU_NOW: NOW, ROLE_CLI: 'local' },
      prepare: (home) => {
        const role = createEngineerRole(home);
        writeSamples(home, role, CONSOLIDATED.slice(0, 6));
        writeHistory(home, role);
        project = path.join(home.root, '專案-kioku');
        fs.mkdirSync(project);
        fs.writeFileSync(path.join(project, 'MEMORY.md'), '# 專案慣例\n- 套件管理用 npm\n');
        const transcripts = path.join(home.root, '.claude', 'projects', '-kioku');
        fs.mkdirSync(transcripts, { recursive: true });
        fs.writeFileSync(path.join(transcripts, 'session.jsonl'), `${JSON.stringify({ type: 'user', cwd: project })}\n`);
        fs.writeFileSync(
          path.join(home.memoryHome, 'JOURNAL.jsonl'),
          `${JSON.stringify({ ts: '2026-11-28T09:12:00+08:00', tags: ['會議'], text: '和設計師討論了新版設定頁。' })}\n`,
        );
      },
    });
    env = daemon.home.env;
    ({ context, page } = await openPage(browser, daemon.url));
  });
  afterAll(async () => {
    await context?.close();
    await daemon?.stop();
    await browser?.close();
  });

  async function shoot(name: string): Promise<void> {
    const close = page.getByRole('button', { name: '關閉通知' });
    while ((await close.count()) > 0) await close.first().click();
    await saveScreenshot(page, name);
  }

  it('the journal shows an entry appended with `kioku journal append`', async () => {
    await page.evaluate(() => (window.location.hash = '#/journal'));
    const entries = page.getByTestId('journal-entry');
    await expect.poll(() => entries.count(), SETTLE).toBe(1);
    await kioku(['journal', 'append', '--text', '用 CLI 記下：部署前先確認 migration 已套用。', '--tags', 'CLI,部署'], env);
    await expect.poll(() => entries.count(), SETTLE).toBe(2);
    expect(await entries.first().innerText()).toContain('部署前先確認 migration 已套用');
    await page.getByRole('group', { name: '依標籤篩選' }).getByRole('button', { name: /#CLI/ }).waitFor();
    expect(pageProblems(page)).toEqual([]);
  });

  it('the facts editor shows `kioku facts update`, and keeps unsaved text with a note when the file changes under it', async () => {
    await page.evaluate(() => (window.location.hash = '#/facts'));
    const text = page.getByTestId('facts-text');
    await text.waitFor();
    expect(await text.inputValue()).toBe('');
    await kioku(['facts', 'update'], env, '- 使用者叫阿明\n');
    await expect.poll(() => text.inputValue(), SETTLE).toBe('- 使用者叫阿明\n');

    // Unsaved text is never replaced under the user's hands.
    await text.fill('- 使用者叫阿明\n- 我正在打的一行\n');
    await kioku(['facts', 'update'], env, '- 使用者叫阿明\n- 喜歡喝烏龍茶\n');
    await page.getByTestId('facts-changed-outside').waitFor(SETTLE);
    expect(await text.inputValue()).toBe('- 使用者叫阿明\n- 我正在打的一行\n');
    await shoot('facts-changed-outside');
    // A save now is refused by main (the file moved on); Reload shows the file.
    await page.getByRole('button', { name: '儲存', exact: true }).click();
    await page.getByRole('alert').waitFor(SETTLE);
    expect(fs.readFileSync(path.join(daemon.home.memoryHome, 'FACT.md'), 'utf8')).toBe('- 使用者叫阿明\n- 喜歡喝烏龍茶\n');
    await page.getByRole('button', { name: '從檔案重新載入' }).click();
    await expect.poll(() => text.inputValue(), SETTLE).toBe('- 使用者叫阿明\n- 喜歡喝烏龍茶\n');
    expect(await page.getByTestId('facts-changed-outside').count()).toBe(0);
  });

  it('the project memory editor shows `kioku project-memory update`', async () => {
    await page.getByRole('tab', { name: /專案記憶/ }).click();
    const select = page.getByTestId('project-select');
    await expect.poll(() => select.locator('option').count(), SETTLE).toBeGreaterThan(1);
    await select.selectOption(project);
    const text = page.getByTestId('project-text');
    await expect.poll(() => text.inputValue(), SETTLE).toBe('# 專案慣例\n- 套件管理用 npm\n');
    await kioku(['project-memory', 'update', '--project', project], env, '# 專案慣例\n- 套件管理用 npm\n- 測試一律跑 vitest\n');
    await expect.poll(() => text.inputValue(), SETTLE).toBe('# 專案慣例\n- 套件管理用 npm\n- 測試一律跑 vitest\n');
    expect(pageProblems(page)).toEqual([]);
  });

  it('the status page and the sleep history follow `kioku sleep`', async () => {
    writeMemoryFixture(
      daemon.home.memoryHome,
      ROLE,
      'inbox',
      'i-cli',
      {
        summary: '使用者想把 CI 改成平行跑測試',
        memory_type: 'procedural',
        priority: 3,
        created: '2026-11-30T11:00:00+08:00',
        updated: '2026-11-30T11:00:00+08:00',
      },
      '想把 CI 改成平行跑測試。',
    );
    await page.evaluate(() => (window.location.hash = '#/status'));
    const card = page.locator(`article[data-role-id="${ROLE}"]`);
    await card.waitFor(SETTLE);
    expect(await card.innerText()).toMatch(/上次睡眠整理\s*從未/);
    await kioku(['sleep', '--force', '--role', ROLE], env);
    await expect.poll(() => card.innerText(), SETTLE).not.toMatch(/上次睡眠整理\s*從未/);

    await page.evaluate(() => (window.location.hash = '#/sleep'));
    const digests = page.getByTestId('digest');
    await expect.poll(() => digests.count(), SETTLE).toBeGreaterThan(2);
    const before = await digests.count();
    await expect.poll(() => page.getByTestId('last-sleep').innerText(), SETTLE).toContain('手動整理');
    // Another run from the CLI while the history is open: its digest appears on top.
    writeMemoryFixture(
      daemon.home.memoryHome,
      ROLE,
      'inbox',
      'i-cli-2',
      {
        summary: '午餐想吃咖哩飯',
        memory_type: 'episodic',
        priority: 2,
        created: '2026-11-30T12:00:00+08:00',
        updated: '2026-11-30T12:00:00+08:00',
      },
      '午餐想吃咖哩飯。',
    );
    await kioku(['sleep', '--force', '--role', ROLE], env);
    await expect.poll(() => digests.count(), SETTLE).toBe(before + 1);
    expect(await digests.first().innerText()).toContain('手動整理');
    expect(pageProblems(page)).toEqual([]);
  });
});
