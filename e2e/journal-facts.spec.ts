import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMemoryFixture } from '../test/helpers/memory-fixtures.js';
import { browserMissing, launchBrowser, openPage, pageProblems, saveScreenshot } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { NOW, ROLE, createEngineerRole } from './helpers/memory-home.js';

const missing = browserMissing();
if (missing) console.warn(`e2e journal-facts: skipped: ${missing}`);

const lines = (count: number) => Array.from({ length: count }, (_, i) => `第 ${i + 1} 條：使用者偏好繁體中文回覆`).join('\n') + '\n';

/** Consolidated memories with tags, so the mind map has concepts, categories and co-occurrences. */
const MAP_MEMORIES: { id: string; category: string; type: string; tags: string[]; links?: string[] }[] = [
  { id: 'mm-1', category: 'important', type: 'procedural', tags: ['部署', '上線', 'smoke test'] },
  { id: 'mm-2', category: 'important', type: 'rule', tags: ['部署', 'Node 20'] },
  { id: 'mm-3', category: 'important', type: 'procedural', tags: ['部署', '回滾'], links: ['mm-1'] },
  { id: 'mm-4', category: 'skill', type: 'procedural', tags: ['SQLite', '效能'] },
  { id: 'mm-5', category: 'skill', type: 'procedural', tags: ['SQLite', 'WAL'] },
  { id: 'mm-6', category: 'skill', type: 'semantic', tags: ['回滾', 'runbook'] },
  { id: 'mm-7', category: 'interest', type: 'preference', tags: ['咖啡', '手沖'] },
  { id: 'mm-8', category: 'interest', type: 'preference', tags: ['咖啡'] },
  { id: 'mm-9', category: 'daily', type: 'episodic', tags: ['牛肉麵', '午餐'] },
  { id: 'mm-10', category: 'daily', type: 'emotional', tags: ['加班', '疲累'] },
  { id: 'mm-11', category: 'news', type: 'semantic', tags: ['TypeScript 5.6'] },
  { id: 'mm-12', category: 'important', type: 'episodic', tags: ['上線', '前端'] },
];

/**
 * The journal, facts and project-memory editors, the status page, the settings page and the mind
 * map in Chromium against a real `kioku daemon --web` — checking the files on disk: FACT.md at
 * exactly 100 lines is accepted, a 101st line is refused by the page and by the API with the file
 * unchanged; a journal entry is found by a Chinese search and by its tag.
 */
describe.skipIf(Boolean(missing))('journal, facts, status, settings and the mind map', () => {
  let browser: Browser;
  let daemon: RunningDaemon;
  let context: BrowserContext;
  let page: Page;
  let project: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await startDaemon({
      // An environment-set value, shown read-only on the settings page.
      env: { KIOKU_NOW: NOW, ROLE_BRIEF_LIMIT: '1800' },
      prepare: (home) => {
        const role = createEngineerRole(home);
        for (const m of MAP_MEMORIES) {
          writeMemoryFixture(home.memoryHome, role, m.category, m.id, {
            summary: m.id,
            memory_type: m.type,
            created: '2026-11-20T10:00:00+08:00',
            tags: m.tags,
            links: m.links ?? [],
          });
        }
        project = path.join(home.root, '專案-kioku');
        fs.mkdirSync(project);
        // A Claude Code transcript in that folder: the project picker offers it.
        const transcripts = path.join(home.root, '.claude', 'projects', '-kioku');
        fs.mkdirSync(transcripts, { recursive: true });
        fs.writeFileSync(path.join(transcripts, 'session.jsonl'), `${JSON.stringify({ type: 'user', cwd: project })}\n`);
        fs.writeFileSync(
          path.join(home.memoryHome, 'JOURNAL.jsonl'),
          [
            { ts: '2026-11-28T09:12:00+08:00', tags: ['會議'], text: '和設計師討論了新版設定頁，決定把環境變數設定的項目標成唯讀。' },
            { ts: '2026-11-29T21:40:00+08:00', tags: ['生活', '咖啡'], text: '換了新的手沖濾杯，水溫 92 度比較不苦。' },
          ]
            .map((entry) => JSON.stringify(entry))
            .join('\n') + '\n',
        );
      },
    });
    ({ context, page } = await openPage(browser, daemon.url));
  });
  afterAll(async () => {
    await context?.close();
    await daemon?.stop();
    await browser?.close();
  });

  const factsFile = () => path.join(daemon.home.memoryHome, 'FACT.md');

  /** The confirmations of earlier steps would cover part of the picture. */
  async function shoot(name: string): Promise<void> {
    const close = page.getByRole('button', { name: '關閉通知' });
    while ((await close.count()) > 0) await close.first().click();
    await saveScreenshot(page, name);
  }

  async function api<T>(channel: string, body: unknown): Promise<{ ok: boolean; value?: T; error?: { code: string; message: string } }> {
    const reply = await fetch(`${daemon.origin}/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-kioku-token': daemon.token },
      body: JSON.stringify(body),
    });
    return (await reply.json()) as { ok: boolean; value?: T; error?: { code: string; message: string } };
  }

  it('saves FACT.md at exactly 100 lines, and refuses a 101st line in the page and in the API', async () => {
    await page.evaluate(() => (window.location.hash = '#/facts'));
    await page.getByRole('heading', { name: '事實與專案記憶', level: 1 }).waitFor();
    const text = page.getByTestId('facts-text');
    const usage = page.getByTestId('facts-usage');
    const save = page.getByRole('button', { name: '儲存', exact: true });
    await text.fill(lines(100));
    await expect.poll(() => usage.innerText()).toMatch(/行數\s*100 \/ 100/);
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await page.getByText('已建立 FACT.md').waitFor();
    expect(fs.readFileSync(factsFile(), 'utf8')).toBe(lines(100));

    await text.fill(lines(101));
    await expect.poll(() => usage.innerText()).toMatch(/行數\s*101 \/ 100/);
    expect(await save.isDisabled()).toBe(true);
    expect(await page.getByTestId('facts-blocked').innerText()).toContain('超過 100 行的上限');
    expect(await usage.locator('.dsh-counter-over').count()).toBe(1);
    await shoot('facts-editor');

    // The page would not send it; main refuses it anyway, and the file stays as saved.
    const read = await api<{ revision: string }>('facts.read', {});
    const refused = await api('facts.update', { text: lines(101), revision: read.value!.revision });
    expect(refused).toMatchObject({ ok: false, error: { code: 'LIMIT_EXCEEDED' } });
    expect(fs.readFileSync(factsFile(), 'utf8')).toBe(lines(100));
  });

  it('creates a project MEMORY.md only on the explicit button, for a folder the picker offers', async () => {
    await page.getByRole('tab', { name: /專案記憶/ }).click();
    const select = page.getByTestId('project-select');
    await expect.poll(() => select.locator('option').count()).toBeGreaterThan(1);
    await select.selectOption(project);
    await page.getByText('這個專案還沒有 MEMORY.md').waitFor();
    expect(fs.existsSync(path.join(project, 'MEMORY.md'))).toBe(false);
    await page.getByRole('button', { name: '建立 MEMORY.md' }).click();
    await page.getByTestId('project-text').fill('# 專案慣例\n- 套件管理用 npm\n- 測試一律跑 vitest\n');
    expect(await page.getByTestId('project-usage').innerText()).toMatch(/字元\s*\d+ \/ 8,000/);
    await page.getByRole('button', { name: '建立並儲存' }).click();
    await page.getByText('已建立 MEMORY.md').waitFor();
    expect(fs.readFileSync(path.join(project, 'MEMORY.md'), 'utf8')).toBe('# 專案慣例\n- 套件管理用 npm\n- 測試一律跑 vitest\n');
    // A path that is not a folder is refused, by name.
    await page.getByTestId('project-path').fill(path.join(daemon.home.root, '不存在的資料夾'));
    await page.getByRole('button', { name: '開啟', exact: true }).click();
    await page.getByRole('alert').getByText('找不到資料夾').waitFor();
  });

  it('appends a journal entry with a tag and finds it by a Chinese search and by its tag', async () => {
    await page.evaluate(() => (window.location.hash = '#/journal'));
    await page.getByRole('heading', { name: '日誌', level: 1 }).waitFor();
    await page.getByTestId('journal-text').fill('今天把部署流程改成先跑 smoke test 再切換流量，回滾步驟寫進 runbook 第二節。');
    await page.getByTestId('journal-tags').fill('部署, 流程');
    await page.getByRole('button', { name: '加入日誌' }).click();
    const entries = page.getByTestId('journal-entry');
    await expect.poll(() => entries.count()).toBe(3);
    expect(await entries.first().innerText()).toContain('今天把部署流程改成先跑 smoke test');
    const stored = fs.readFileSync(path.join(daemon.home.memoryHome, 'JOURNAL.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(stored[2]!)).toMatchObject({ tags: ['部署', '流程'], text: expect.stringContaining('部署流程') });

    const count = page.getByTestId('journal-count');
    await page.getByRole('searchbox', { name: '搜尋日誌' }).fill('部署流程');
    await expect.poll(() => count.innerText()).toBe('找到 1 則符合「部署流程」');
    expect(await entries.count()).toBe(1);
    expect(await entries.first().locator('mark').first().innerText()).toBe('部署流程');
    await page.getByRole('button', { name: '清除篩選' }).click();
    await expect.poll(() => entries.count()).toBe(3);

    await page.getByRole('group', { name: '依標籤篩選' }).getByRole('button', { name: /#流程/ }).click();
    await expect.poll(() => count.innerText()).toBe('找到 1 則標記 #流程');
    expect(await entries.first().innerText()).toContain('部署流程');
    await page.getByRole('button', { name: '清除篩選' }).click();
    // A tag in an entry filters too.
    await entries.filter({ hasText: '手沖濾杯' }).getByRole('button', { name: '只看標記 #咖啡 的日誌' }).click();
    await expect.poll(() => count.innerText()).toBe('找到 1 則標記 #咖啡');
    await page.getByRole('button', { name: '清除篩選' }).click();
    await page.getByRole('searchbox', { name: '搜尋日誌' }).fill('部署');
    await expect.poll(() => count.innerText()).toBe('找到 1 則符合「部署」');
    await shoot('journal-search');
    expect(pageProblems(page)).toEqual([]);
  });

  it('shows the status report with the role and the diagnose checklist', async () => {
    await page.evaluate(() => (window.location.hash = '#/status'));
    const role = page.locator(`article[data-role-id="${ROLE}"]`);
    await role.waitFor();
    expect(await role.innerText()).toContain('小豹');
    expect(await role.innerText()).toContain(`${MAP_MEMORIES.length} 則記憶`);
    await page.getByTestId('diagnose-summary').waitFor();
    const roleCheck = page.locator('[data-code="role.ok"]');
    expect(await roleCheck.innerText()).toContain(ROLE);
    // No hooks are installed on the temp home: a ✗ with what to do.
    expect(await page.locator('[data-code="hooks.none"]').innerText()).toContain('kioku hooks install');
    expect(await page.locator('.status-page').innerText()).not.toMatch(/[{}]"/);
    await shoot('status-diagnose');
  });

  it('saves a settings group to settings.json, marks a value out of range, and shows environment-set ones read-only', async () => {
    await page.evaluate(() => (window.location.hash = '#/settings'));
    await page.getByRole('tab', { name: '小睡' }).click();
    const nap = page.locator('[data-group="nap"]');
    await nap.waitFor();
    const idle = nap.locator('input[data-setting="ROLE_NAP_IDLE_MINUTES"]');
    await idle.fill('30');
    const interval = nap.locator('input[data-setting="ROLE_NAP_INTERVAL_MINUTES"]');
    await interval.fill('60');
    await nap.getByText('不能大於 59。').waitFor();
    expect(await nap.getByRole('button', { name: '儲存這一組' }).isDisabled()).toBe(true);
    await interval.fill('15');
    await nap.getByRole('button', { name: '儲存這一組' }).click();
    await page.getByText('已儲存「小睡」的設定。').waitFor();
    const file = path.join(daemon.home.memoryHome, '.kioku', 'settings.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ ROLE_NAP_IDLE_MINUTES: 30, ROLE_NAP_INTERVAL_MINUTES: 15 });
    expect(await nap.locator('[data-setting-row="ROLE_NAP_IDLE_MINUTES"] .setting-source').innerText()).toBe('設定檔');

    await shoot('settings-groups');
    // Unsaved changes of a group survive switching tabs.
    await idle.fill('40');
    await page.getByRole('tab', { name: '晨間簡報' }).click();
    const brief = page.locator('[data-setting-row="ROLE_BRIEF_LIMIT"]');
    await brief.waitFor();
    expect(await brief.innerText()).toContain('環境變數');
    expect(await brief.locator('input').count()).toBe(0);
    expect(await brief.innerText()).toContain('1800');
    await page.getByRole('tab', { name: '小睡' }).click();
    expect(await idle.inputValue()).toBe('40');
    await nap.getByRole('button', { name: '放棄變更' }).click();
    expect(await idle.inputValue()).toBe('30');
  });

  it('draws the mind map, shows a concept’s weight on focus, and gives the Mermaid text', async () => {
    await page.evaluate(() => (window.location.hash = '#/mindmap'));
    const svg = page.getByTestId('mindmap-svg');
    await svg.waitFor();
    const deploy = svg.getByRole('button', { name: /^部署：出現在 3 則記憶/ });
    await deploy.focus();
    await expect.poll(() => page.getByTestId('mindmap-weight').innerText()).toBe('出現在 3 則已整理的記憶');
    expect(await page.locator('.mindmap-related').innerText()).toContain('上線');
    await page.getByRole('button', { name: '複製 Mermaid' }).click();
    // Copied (a notice), or — where the clipboard is refused — the text is opened for copying by hand.
    const details = page.locator('details.mindmap-text');
    await expect
      .poll(
        async () =>
          (await page.getByText('已複製 Mermaid 文字').count()) > 0 || (await details.evaluate((d) => (d as HTMLDetailsElement).open)),
      )
      .toBe(true);
    if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await page.getByText('顯示 Mermaid 文字').click();
    const mermaid = await page.getByTestId('mindmap-mermaid').innerText();
    expect(mermaid.startsWith('mindmap')).toBe(true);
    expect(mermaid).toContain('["部署"]');
    await page.getByText('顯示 Mermaid 文字').click();
    await deploy.focus();
    await shoot('mindmap');
    expect(pageProblems(page)).toEqual([]);
  });

  it('reads in English and in the dark theme too (settings and the status checklist)', async () => {
    const dark = await openPage(browser, daemon.url, { colorScheme: 'dark' });
    try {
      const p = dark.page;
      await p.getByRole('link', { name: '設定' }).click();
      await p.getByRole('radio', { name: 'English' }).check();
      await p.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await p.getByRole('tab', { name: 'Morning brief' }).click();
      const brief = p.locator('[data-setting-row="ROLE_BRIEF_LIMIT"]');
      expect(await brief.innerText()).toContain('Set in the environment');
      await saveScreenshot(p, 'settings-en-dark');
      await p.evaluate(() => (window.location.hash = '#/status'));
      await p.getByTestId('diagnose-summary').waitFor();
      expect(await p.locator('[data-code="hooks.none"]').innerText()).toContain('No assistant has Kioku’s hooks');
      expect(pageProblems(p)).toEqual([]);
    } finally {
      await dark.context.close();
    }
  });
});
