import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from '../test/helpers/bundle-entry.js';
import { browserMissing, launchBrowser, openPage, pageProblems, saveScreenshot } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { CONSOLIDATED, INBOX, NOW, ROLE, createEngineerRole, writeHistory, writeSamples } from './helpers/memory-home.js';

/** Waiting for the page to settle, not a time limit on it. */
const SETTLE = { timeout: 30_000 };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILT_HOOK = path.join(root, 'dist', 'hooks', 'kioku-hook.js');
/** The hook client as it ships (dist/), else bundled from the sources like the daemon helper does. */
const hookClient = () => (fs.existsSync(BUILT_HOOK) ? BUILT_HOOK : bundleEntry('hooks/kioku-hook.ts'));

const missing = browserMissing();
if (missing) console.warn(`e2e memory actions: skipped: ${missing}`);

/** A memory merged by two consolidations: Markdown, a repeated sentence, a link and raw HTML. */
const MERGED = {
  id: 'm-release',
  category: 'important',
  type: 'procedural',
  priority: 4,
  summary: '發版前的三個檢查',
  created: '2026-11-29T10:00:00+08:00',
  body: [
    '主旨：發版前要做三個檢查。',
    '細節：',
    '',
    '- 先跑 **lint**',
    '- 再跑 `npm test`',
    '- 先跑 **lint**',
    '- 對照[變更紀錄](https://example.com/changelog)',
    '',
    '發版前要做三個檢查。',
    '',
    '<img src="https://example.com/x.png" onerror="window.__pwned = true">',
  ].join('\n'),
};

/** The SessionStart a Claude Code session would get now: the real hook client on the daemon's home. */
let sessions = 0;
function sessionStart(daemon: RunningDaemon): Promise<string> {
  // A new session each time, as a new Claude Code window would be.
  const payload = {
    session_id: `e2e-memory-actions-${++sessions}`,
    transcript_path: path.join(daemon.home.root, 'none.jsonl'),
    cwd: daemon.home.root,
    hook_event_name: 'SessionStart',
    source: 'startup',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [hookClient(), 'session-start', '--assistant', 'claude'], {
      env: daemon.home.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // A safety net so a hanging hook fails this test rather than the run; not a timing check.
    const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(deadline);
      resolve(out);
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

/**
 * Issue 16 in Chromium against a real `kioku daemon --web`: the memory detail as Markdown, the
 * timeline's state in the URL, and the memory actions — edit (seen by the next SessionStart),
 * pin, mark wrong, forget with an undo toast, and the Forgotten filter with restore.
 */
describe.skipIf(Boolean(missing))('memory actions in the timeline', () => {
  let browser: Browser;
  let daemon: RunningDaemon;
  let context: BrowserContext;
  let page: Page;
  const memoryFile = (category: string, id: string) => path.join(daemon.home.memoryHome, ROLE, category, `${id}.md`);
  const row = (id: string) => page.locator(`.memory-row[data-memory-id="${id}"]`);
  const detail = () => page.getByTestId('memory-detail');
  /** The list is virtualized: walk it with the keyboard until the row exists, then open it. */
  const open = async (id: string, summary: string) => {
    if ((await row(id).count()) === 0) {
      await page.locator('.memory-row').first().focus();
      await page.keyboard.press('Home');
      for (let step = 0; step < 60 && (await row(id).count()) === 0; step++) await page.keyboard.press('ArrowDown');
    }
    // A list that just gained a row (a correction, a restore) may shift under the pointer: click again then.
    for (let attempt = 1; ; attempt++) {
      await row(id).click();
      try {
        await detail()
          .getByRole('heading', { name: summary, level: 2 })
          .waitFor({ timeout: attempt < 3 ? 10_000 : SETTLE.timeout });
        return;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await startDaemon({
      env: { KIOKU_NOW: NOW },
      prepare: (home) => {
        const role = createEngineerRole(home);
        writeSamples(home, role, [...CONSOLIDATED, MERGED, ...INBOX]);
        writeHistory(home, role);
      },
    });
    ({ context, page } = await openPage(browser, daemon.url));
    await page.evaluate(() => (window.location.hash = '#/timeline'));
    await row('i-backoff').waitFor(SETTLE);
  });
  afterAll(async () => {
    await context?.close();
    await daemon?.stop();
    await browser?.close();
  });

  it('renders the body as Markdown, each sentence once, links safe and raw HTML inert', async () => {
    await open('m-release', '發版前的三個檢查');
    const body = detail().locator('.memory-markdown');
    await expect.poll(() => body.locator('li').count(), SETTLE).toBe(3);
    expect(await body.locator('strong').allInnerTexts()).toEqual(['lint']);
    expect(await body.locator('code').allInnerTexts()).toEqual(['npm test']);
    const text = await body.allInnerTexts();
    expect(text.join('\n')).not.toMatch(/^- |\*\*|<img/m);
    expect(text.join('\n').split('發版前要做三個檢查').length - 1).toBe(1);
    const link = body.getByRole('link', { name: '變更紀錄' });
    expect(await link.getAttribute('href')).toBe('https://example.com/changelog');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toContain('noopener');
    expect(await body.locator('img, script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await page.setViewportSize({ width: 1280, height: 1500 });
    await saveScreenshot(page, 'memory-detail-markdown', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('scrolls the panel into view when it would open below the fold', async () => {
    await detail().getByRole('button', { name: '關閉記憶內容' }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    // At the top of the page the list starts under the chart and the filters, near the window's bottom.
    const rowTop = (await row('i-backoff').boundingBox())!.y;
    expect(rowTop).toBeGreaterThan(860 / 2);
    await row('i-backoff').click();
    await detail().getByRole('heading', { name: '使用者問了 WebSocket 重新連線的退避時間' }).waitFor(SETTLE);
    await expect
      .poll(async () => {
        const box = await detail().boundingBox();
        return box !== null && box.y >= 0 && box.y < 860 / 3;
      }, SETTLE)
      .toBe(true);
  });

  it('keeps the filters and the open memory in the URL, so a reload shows the same view', async () => {
    await page.getByRole('group', { name: '類型' }).getByRole('button', { name: '程序' }).click();
    await open('m-deploy', '正式環境部署要先跑 smoke test 再切換流量');
    await expect
      .poll(() => page.evaluate(() => decodeURIComponent(window.location.hash)), SETTLE)
      .toMatch(/type=procedural.*open=ENGINEER01:m-deploy/);
    await page.reload();
    await detail().getByRole('heading', { name: '正式環境部署要先跑 smoke test 再切換流量' }).waitFor(SETTLE);
    expect(await page.getByRole('group', { name: '類型' }).getByRole('button', { name: '程序' }).getAttribute('aria-pressed')).toBe('true');
    const procedural = [...CONSOLIDATED, MERGED, ...INBOX].filter((m) => m.type === 'procedural').length;
    await expect.poll(() => page.locator('.timeline-count').innerText(), SETTLE).toContain(`共 ${procedural} 則`);
    await page.getByRole('button', { name: '清除篩選' }).click();
    await expect.poll(() => page.evaluate(() => window.location.hash), SETTLE).not.toContain('type=');
  });

  it('edits a memory, and the next SessionStart carries the edit', async () => {
    const before = await sessionStart(daemon);
    expect(before).toContain('專案一律使用 Node 20，不升級到 22');
    await open('m-node20', '專案一律使用 Node 20，不升級到 22');
    await detail().getByRole('button', { name: '編輯' }).click();
    await detail().getByLabel('摘要').fill('專案改用 Node 22，舊的 20 不再支援');
    await detail().getByLabel('內容（Markdown）').fill('- 新專案用 **Node 22**\n- 舊專案升級前先跑完整測試');
    await detail().getByLabel('標籤（以逗號分隔）').fill('node、升級');
    await page.setViewportSize({ width: 1280, height: 1500 });
    await saveScreenshot(page, 'memory-edit', { fullPage: false });
    await detail().getByRole('button', { name: '儲存' }).click();
    await detail().getByRole('heading', { name: '專案改用 Node 22，舊的 20 不再支援' }).waitFor(SETTLE);
    await page.setViewportSize({ width: 1280, height: 860 });
    const file = fs.readFileSync(memoryFile('important', 'm-node20'), 'utf8');
    expect(file).toContain('summary: 專案改用 Node 22，舊的 20 不再支援');
    expect(file).toContain('tags: [node, 升級]');
    expect(file).toContain('- 新專案用 **Node 22**\n- 舊專案升級前先跑完整測試');
    expect(await detail().locator('.memory-markdown li').allInnerTexts()).toEqual(['新專案用 Node 22', '舊專案升級前先跑完整測試']);
    const after = await sessionStart(daemon);
    expect(after).toContain('專案改用 Node 22，舊的 20 不再支援');
    expect(after).toContain('- 舊專案升級前先跑完整測試');
    expect(after).not.toContain('專案一律使用 Node 20，不升級到 22');
  });

  it('pins a faded memory: pinned: true in the file, shown clear, and loaded by SessionStart', async () => {
    expect(await sessionStart(daemon)).not.toContain('早上聊到喜歡淺焙的衣索比亞咖啡');
    await open('m-coffee', '早上聊到喜歡淺焙的衣索比亞咖啡');
    await detail().getByRole('button', { name: '釘選', exact: true }).click();
    await detail().getByText('已釘選', { exact: false }).first().waitFor(SETTLE);
    expect(fs.readFileSync(memoryFile('daily', 'm-coffee'), 'utf8')).toMatch(/^pinned: true$/m);
    await expect.poll(() => row('m-coffee').locator('.clarity-mark').getAttribute('aria-label'), SETTLE).toBe('清晰');
    expect(await detail().getByRole('button', { name: '取消釘選' }).getAttribute('aria-pressed')).toBe('true');
    await page.setViewportSize({ width: 1280, height: 1500 });
    await saveScreenshot(page, 'memory-pinned', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 860 });
    expect(await sessionStart(daemon)).toContain('早上聊到喜歡淺焙的衣索比亞咖啡');
  });

  it('marks a memory wrong with a correction: labelled, no longer loaded, the correction is', async () => {
    await open('m-indent', '使用者偏好兩格空白縮排');
    await detail().getByRole('button', { name: '標記為錯誤' }).click();
    const dialog = page.getByRole('dialog', { name: '把這段記憶標記為錯誤' });
    await dialog.getByLabel('正確的內容（可留空）').fill('使用者改成偏好四格空白縮排');
    await page.setViewportSize({ width: 1280, height: 1500 });
    await saveScreenshot(page, 'memory-mark-wrong', { fullPage: false });
    await dialog.getByRole('button', { name: '標記為錯誤' }).click();
    await detail().getByRole('heading', { name: '〔已更正〕使用者偏好兩格空白縮排' }).waitFor(SETTLE);
    await page.setViewportSize({ width: 1280, height: 860 });
    expect(fs.readFileSync(memoryFile('interest', 'm-indent'), 'utf8')).toMatch(/^superseded_by: \d/m);
    await expect
      .poll(() => page.locator('.timeline-count').innerText(), SETTLE)
      .toContain(`共 ${CONSOLIDATED.length + 1 + INBOX.length + 1} 則`);
    const context = await sessionStart(daemon);
    expect(context).toContain('使用者改成偏好四格空白縮排');
    expect(context).not.toContain('使用者偏好兩格空白縮排');
  });

  it('forgets a memory after a confirmation, and the undo toast brings it back byte for byte', async () => {
    const file = memoryFile('other', 'm-typo');
    const bytes = fs.readFileSync(file);
    await open('m-typo', '修正 README 裡的錯字');
    await detail().getByRole('button', { name: '遺忘' }).click();
    await page.getByRole('dialog', { name: '要遺忘這段記憶嗎？' }).getByRole('button', { name: '遺忘' }).click();
    const toast = page.getByTestId('undo-toast');
    await toast.waitFor(SETTLE);
    expect(await toast.innerText()).toContain('已遺忘「修正 README 裡的錯字」');
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(path.join(daemon.home.memoryHome, ROLE, 'archive', 'forgotten', 'm-typo.md.gz'))).toBe(true);
    await row('m-typo').waitFor({ state: 'detached', ...SETTLE });
    await saveScreenshot(page, 'memory-forget-undo', { fullPage: false });
    await toast.getByRole('button', { name: '復原' }).click();
    await detail().getByRole('heading', { name: '修正 README 裡的錯字' }).waitFor(SETTLE);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    await toast.waitFor({ state: 'detached', ...SETTLE });
  });

  it('lists forgotten memories under the Forgotten filter and restores one', async () => {
    await open('m-walk', '午休散步時想到快取失效的解法');
    await detail().getByRole('button', { name: '遺忘' }).click();
    await page.getByRole('dialog', { name: '要遺忘這段記憶嗎？' }).getByRole('button', { name: '遺忘' }).click();
    await page.getByTestId('undo-toast').getByRole('button', { name: '關閉通知' }).click();
    await page.getByRole('button', { name: '已遺忘', exact: true }).click();
    const list = page.getByTestId('forgotten-list');
    const item = list.locator('.forgotten-item[data-archive="m-walk"]');
    await item.waitFor(SETTLE);
    expect(await item.innerText()).toContain('午休散步時想到快取失效的解法');
    expect(await item.innerText()).toContain('遺忘於 2026年11月30日'); // on Kioku's clock (KIOKU_NOW)
    expect(await page.evaluate(() => window.location.hash)).toContain('forgotten=1');
    await page.setViewportSize({ width: 1280, height: 1300 });
    await saveScreenshot(page, 'memory-forgotten', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 860 });
    await item.getByRole('button', { name: '找回' }).click();
    await item.waitFor({ state: 'detached', ...SETTLE });
    expect(fs.existsSync(memoryFile('daily', 'm-walk'))).toBe(true);
    await page.getByRole('button', { name: '已遺忘', exact: true }).click();
    await open('m-walk', '午休散步時想到快取失效的解法');
    expect(pageProblems(page)).toEqual([]);
  });
});
