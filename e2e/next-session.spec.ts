import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser, openPage, pageProblems, saveScreenshot } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { CONSOLIDATED, INBOX, NOW, ROLE, createEngineerRole, writeHistory, writeSamples } from './helpers/memory-home.js';
import { kioku, sessionStartHook } from './helpers/run-kioku.js';

const missing = browserMissing();
if (missing) console.warn(`e2e next session: skipped: ${missing}`);

/** Waiting for the page to settle, not a time limit on it. */
const SETTLE = { timeout: 30_000 };

/** Claude Code's transcript folder for a project: the full path with every non-alphanumeric character as `-`. */
const claudeFolder = (root: string, project: string) => path.join(root, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));

/**
 * "Next session" in Chromium against a real `kioku daemon --web`: the preview for the role in a
 * project folder is byte for byte what the real hook client prints for a new Claude Code session
 * there (answered by the same daemon), with a tight ROLE_LOAD_LIMIT so that long-term memories
 * are left out and listed; and it follows a `kioku facts update` without a reload.
 */
describe.skipIf(Boolean(missing))('the next-session preview', () => {
  let browser: Browser;
  let daemon: RunningDaemon;
  let context: BrowserContext;
  let page: Page;
  let project: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await startDaemon({
      env: { KIOKU_NOW: NOW, ROLE_LOAD_LIMIT: '500' },
      prepare: (home) => {
        const role = createEngineerRole(home);
        writeSamples(home, role, [...CONSOLIDATED, ...INBOX]);
        writeHistory(home, role);
        project = path.join(home.root, 'shop-api');
        fs.mkdirSync(project);
        fs.writeFileSync(path.join(project, 'MEMORY.md'), '# shop-api\n- 每次 push 之前先跑 npm test\n');
        // The previous session in that project: a new session's load carries its last turns (CTX-6).
        const folder = claudeFolder(home.root, project);
        fs.mkdirSync(folder, { recursive: true });
        const base = {
          isSidechain: false,
          cwd: project,
          sessionId: 'earlier',
          version: '2.1.9',
          userType: 'external',
          timestamp: '2026-11-30T05:50:00.000Z',
        };
        const lines = [
          { ...base, type: 'user', uuid: 'u-1', message: { role: 'user', content: '幫我看一下 rate limiter 為什麼擋掉正常流量？' } },
          {
            ...base,
            type: 'assistant',
            uuid: 'a-1',
            message: {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: 'claude-sonnet-4-5',
              content: [{ type: 'text', text: 'Proxy 後面所有請求的 IP 都一樣，我改用 X-Forwarded-For 計數了。' }],
            },
          },
        ];
        const transcript = path.join(folder, 'earlier.jsonl');
        fs.writeFileSync(transcript, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
        const at = new Date(Date.parse(NOW) - 10 * 60_000);
        fs.utimesSync(transcript, at, at);
      },
    });
    ({ context, page } = await openPage(browser, daemon.url));
  });
  afterAll(async () => {
    await context?.close();
    await daemon?.stop();
    await browser?.close();
  });

  async function preview(): Promise<{ text: string; blocks: { name: string; omitted: number }[] }> {
    const reply = await fetch(`${daemon.origin}/api/context.preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-kioku-token': daemon.token },
      body: JSON.stringify({ role: ROLE, project }),
    });
    const answer = (await reply.json()) as { ok: boolean; value: { text: string; blocks: { name: string; omitted: number }[] } };
    expect(answer.ok).toBe(true);
    return answer.value;
  }

  const shownText = async () => (await page.getByTestId('preview-part').allTextContents()).join('\n\n');

  it('shows for the chosen project exactly what the SessionStart hook injects, with budgets and what was left out', async () => {
    await page.getByRole('link', { name: '下次對話' }).click();
    await page.getByRole('heading', { name: '下次對話會載入什麼', level: 1 }).waitFor();
    const select = page.getByTestId('preview-project');
    await expect.poll(() => select.locator('option').count(), SETTLE).toBeGreaterThan(1);
    await select.selectOption(project);
    await expect.poll(shownText, SETTLE).toContain('每次 push 之前先跑 npm test');

    const expected = await preview();
    expect(await shownText()).toBe(expected.text);
    // The real hook client, as Claude Code runs it for a new session in that folder (the daemon answers).
    const hook = await sessionStartHook(
      {
        session_id: 'e2e-new-session',
        transcript_path: path.join(claudeFolder(daemon.home.root, project), 'e2e-new-session.jsonl'),
        cwd: project,
        hook_event_name: 'SessionStart',
        source: 'startup',
        permission_mode: 'default',
      },
      daemon.home.env,
    );
    expect(hook).toBe(expected.text);
    expect(hook).toContain('小豹');
    expect(hook).toContain('X-Forwarded-For'); // the previous session's dialog

    // Budgets: the long-term memories against ROLE_LOAD_LIMIT=500, and what did not fit.
    const memoryRow = page.locator('[data-testid="preview-blocks"] tr[data-block="memory"]');
    expect(await memoryRow.innerText()).toMatch(/\/ 500/);
    const leftOut = expected.blocks.find((block) => block.name === 'memory')!.omitted;
    expect(leftOut).toBeGreaterThan(0);
    expect(await memoryRow.innerText()).toContain(`${leftOut} 則沒放進來`);
    expect(await page.getByTestId('preview-left-out').innerText()).toContain(`長期記憶：${leftOut} 則`);
    expect(await page.locator('tr[data-block="dialog"]').innerText()).toMatch(/\/ 4,000/);
    await saveScreenshot(page, 'next-session');
    expect(pageProblems(page)).toEqual([]);
  });

  it('follows a change made with the CLI without a reload', async () => {
    await kioku(['facts', 'update'], daemon.home.env, '- 使用者的 shell 是 fish\n');
    await expect.poll(shownText, SETTLE).toContain('使用者的 shell 是 fish');
    expect(await shownText()).toBe((await preview()).text);
    expect(pageProblems(page)).toEqual([]);
  });
});
