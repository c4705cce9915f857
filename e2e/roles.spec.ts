import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser, openPage, pageProblems } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { seedSampleRoles } from './helpers/seed-home.js';

const missing = browserMissing();
if (missing) console.warn(`e2e roles: skipped: ${missing}`);

describe.skipIf(Boolean(missing))('the Roles views in Chromium against kioku daemon --web', () => {
  let browser: Browser;
  let daemon: RunningDaemon | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
    await daemon?.stop();
    daemon = undefined;
  });

  async function open(seed: boolean): Promise<Page> {
    daemon = await startDaemon({ prepare: seed ? (home) => void seedSampleRoles(home) : undefined });
    const opened = await openPage(browser, daemon.url);
    context = opened.context;
    return opened.page;
  }

  const card = (page: Page, id: string) => page.locator(`li[data-role-id="${id}"]`);
  const roleFile = (name: string) => path.join(daemon!.home.roleHome, name);

  it('creates a role through the form, asking for an ID prefix when the name is Chinese', async () => {
    const page = await open(false);
    await page.getByRole('heading', { name: '還沒有角色' }).waitFor();
    await page.getByRole('link', { name: '新增角色' }).first().click();
    await page.getByRole('heading', { name: '新增角色', level: 1 }).waitFor();

    await page.locator('[data-field="name"]').fill('小豹');
    await page.locator('[data-field="emoji"]').fill('🐆');
    await page.locator('[data-field="nature"]').fill('冷靜可靠的資深工程師，重證據、不打包票。');
    await page.locator('[data-field="vibe"]').fill('簡潔直白，不用客套開場白。');
    await page.locator('[data-field="aliases"]').fill('豹哥、leopard');
    await page.getByRole('button', { name: '建立角色' }).click();
    // No prefix and a CJK name: the form says so before anything is sent.
    await page.getByText('顯示名稱不是英文，無法自動產生 ID').waitFor();
    expect(await page.locator('[data-field="prefix"]').getAttribute('aria-invalid')).toBe('true');
    expect(fs.existsSync(roleFile('ENGINEER01.identity.md'))).toBe(false);

    await page.locator('[data-field="prefix"]').fill('ENGINEER');
    await page.getByRole('button', { name: '建立角色' }).click();
    await card(page, 'ENGINEER01').waitFor();
    expect(await card(page, 'ENGINEER01').innerText()).toContain('使用中');
    expect(await page.getByTestId('active-role').innerText()).toContain('小豹');

    const identity = fs.readFileSync(roleFile('ENGINEER01.identity.md'), 'utf8');
    expect(identity).toContain('name: 小豹');
    expect(identity).toMatch(/豹哥/);
    expect(fs.readFileSync(roleFile('ENGINEER01.soul.md'), 'utf8')).toContain('冷靜可靠的資深工程師');
    expect(fs.readFileSync(roleFile('.active'), 'utf8')).toBe('ENGINEER01\n');
    expect(pageProblems(page)).toEqual([]);
  });

  it('edits a role only after showing the old/new table, then applies exactly that change', async () => {
    const page = await open(true);
    await card(page, 'ENGINEER01').getByRole('link', { name: '編輯 小豹' }).click();
    await page.getByRole('heading', { name: '編輯 小豹' }).waitFor();
    const identityBefore = fs.readFileSync(roleFile('ENGINEER01.identity.md'), 'utf8');
    const soulBefore = fs.readFileSync(roleFile('ENGINEER01.soul.md'), 'utf8');

    await page.locator('[data-field="name"]').fill('小豹二代');
    await page.locator('[data-field="vibe"]').fill('更簡潔了，只講重點。');
    await page.getByRole('button', { name: '檢視變更' }).click();

    const table = page.getByTestId('role-change-table');
    await table.waitFor();
    const nameRow = table.locator('tr[data-field="name"]');
    expect(await nameRow.getAttribute('data-changed')).toBe('true');
    expect(await nameRow.locator('.diff-old').innerText()).toBe('小豹');
    expect(await nameRow.locator('.diff-new').innerText()).toBe('小豹二代');
    expect(await table.locator('tr[data-field="vibe"]').getAttribute('data-changed')).toBe('true');
    expect(await table.locator('tr[data-field="nature"]').getAttribute('data-changed')).toBe('false');
    expect(await table.locator('tbody tr').count()).toBe(8);
    // The table is shown; nothing is written yet (ROLE-5).
    expect(fs.readFileSync(roleFile('ENGINEER01.identity.md'), 'utf8')).toBe(identityBefore);
    expect(fs.readFileSync(roleFile('ENGINEER01.soul.md'), 'utf8')).toBe(soulBefore);

    await page.getByRole('button', { name: '確認套用' }).click();
    await page.getByText('已更新 小豹二代').waitFor();
    await card(page, 'ENGINEER01').getByRole('heading', { name: '小豹二代' }).waitFor();
    expect(fs.readFileSync(roleFile('ENGINEER01.identity.md'), 'utf8')).toContain('name: 小豹二代');
    const soul = fs.readFileSync(roleFile('ENGINEER01.soul.md'), 'utf8');
    expect(soul).toContain('更簡潔了，只講重點。');
    expect(soul).toContain('冷靜可靠的資深工程師');
    expect(pageProblems(page)).toEqual([]);
  });

  it('archives a role that is not active, and refuses the active one', async () => {
    const page = await open(true);
    const activeArchive = card(page, 'ENGINEER01').getByRole('button', { name: '封存 小豹' });
    await activeArchive.waitFor();
    expect(await activeArchive.isDisabled()).toBe(true);
    expect(await card(page, 'ENGINEER01').innerText()).toContain('使用中的角色無法封存');

    // The server refuses too, whatever a page sends.
    const refused = await page.evaluate(async (token) => {
      const response = await fetch('/api/roles.archive', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-kioku-token': token },
        body: JSON.stringify({ id: 'ENGINEER01' }),
      });
      return (await response.json()) as { ok: boolean; error?: { code: string } };
    }, daemon!.token);
    expect(refused).toMatchObject({ ok: false, error: { code: 'REFUSED' } });
    expect(fs.existsSync(roleFile('ENGINEER01.identity.md'))).toBe(true);

    await card(page, 'MUSE01').getByRole('button', { name: '封存 珪子' }).click();
    const dialog = page.getByRole('dialog', { name: '封存「珪子」？' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '封存角色' }).click();
    await card(page, 'MUSE01').waitFor({ state: 'detached' });
    expect(fs.existsSync(roleFile('MUSE01.identity.md'))).toBe(false);
    const archived = fs.readdirSync(roleFile('.archive'));
    expect(archived.some((name) => name.startsWith('MUSE01-'))).toBe(true);
    expect(fs.readdirSync(path.join(daemon!.home.memoryHome, '.archive')).some((name) => name.startsWith('MUSE01-'))).toBe(true);
    expect(pageProblems(page)).toEqual([]);
  });

  it('sets the active role, reorders with the keyboard buttons, and filters', async () => {
    const page = await open(true);
    await card(page, 'MUSE01').getByRole('button', { name: '設為使用中' }).click();
    await page.getByTestId('active-role').getByText('珪子').waitFor();
    expect(fs.readFileSync(roleFile('.active'), 'utf8')).toBe('MUSE01\n');
    expect(await card(page, 'ENGINEER01').getByRole('button', { name: '封存 小豹' }).isDisabled()).toBe(false);

    const ids = async () => page.locator('li[data-role-id]').evaluateAll((items) => items.map((item) => item.getAttribute('data-role-id')));
    expect(await ids()).toEqual(['ENGINEER01', 'HELPER01', 'MUSE01', 'NIGHTOWL01', 'RESEARCHER01']);
    await page.getByRole('button', { name: '將 小豹 下移' }).click();
    await page.getByText('已儲存角色順序').waitFor();
    expect(await ids()).toEqual(['HELPER01', 'ENGINEER01', 'MUSE01', 'NIGHTOWL01', 'RESEARCHER01']);
    expect(fs.readFileSync(roleFile('.order'), 'utf8').split('\n').slice(0, 2)).toEqual(['HELPER01', 'ENGINEER01']);

    // The order survives a reload (it lives in the role home, not in the page).
    await page.reload();
    await card(page, 'RESEARCHER01').waitFor();
    expect(await ids()).toEqual(['HELPER01', 'ENGINEER01', 'MUSE01', 'NIGHTOWL01', 'RESEARCHER01']);

    await page.getByRole('searchbox', { name: '篩選角色' }).fill('研究');
    await page.waitForFunction(() => document.querySelectorAll('li[data-role-id]').length === 1);
    expect(await ids()).toEqual(['RESEARCHER01']);
    expect(pageProblems(page)).toEqual([]);
  });
});
