import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EMOJI_MOODS } from '../common/emoji-grid.js';
import { SHEET_COLOURS, dominantColour, makeSheet, sameColour } from '../test/helpers/emoji-sheet-fixture.js';
import { browserMissing, launchBrowser, openPage, pageProblems, saveScreenshot } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { seedSampleRoles } from './helpers/seed-home.js';

const missing = browserMissing();
if (missing) console.warn(`e2e emoji-sheet: skipped: ${missing}`);

/**
 * The emoji sheet editor (ROLE-10) in Chromium against a real `kioku daemon --web`: a 3×3 sheet
 * of nine coloured cells (margins and gutters in white) is imported through the page, a grid
 * line is moved, the ROLE-5 table is confirmed, and the files on disk are checked: nine PNGs
 * whose colours are their moods', the grid file, and the role's 簽名 emoji section.
 */
describe.skipIf(Boolean(missing))('the emoji sheet editor in Chromium against kioku daemon --web', () => {
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

  /** 小豹 (ENGINEER01) and a sheet file: cells of 200 px, 24 px margins, 16 px gutters → 680 × 680. */
  async function open(): Promise<{ page: Page; sheetFile: string }> {
    const sheet = await makeSheet({ cell: 200, margin: 24, gutter: 16, faces: true });
    let sheetFile = '';
    daemon = await startDaemon({
      env: { KIOKU_NOW: '2026-11-30T14:00:00+08:00' },
      prepare: (home) => {
        seedSampleRoles(home, 1);
        sheetFile = path.join(home.root, '小豹 心情表情.png');
        fs.writeFileSync(sheetFile, sheet.bytes);
      },
    });
    const opened = await openPage(browser, daemon.url);
    context = opened.context;
    return { page: opened.page, sheetFile };
  }

  const emojis = () => path.join(daemon!.home.roleHome, '.assets', 'emojis');
  const identity = () => fs.readFileSync(path.join(daemon!.home.roleHome, 'ENGINEER01.identity.md'), 'utf8');
  const fieldValue = async (page: Page, testId: string) => Number(await page.getByTestId(testId).inputValue());

  it('imports a sheet through the file input, moves grid lines, confirms the old/new table, and writes nine PNGs and the signature', async () => {
    const { page, sheetFile } = await open();
    await page.evaluate(() => (window.location.hash = '#/roles/ENGINEER01/edit'));
    await page.getByRole('link', { name: '表情圖' }).click();
    await page.getByRole('heading', { name: '小豹 的表情圖', level: 1 }).waitFor();
    await page.getByRole('heading', { name: '匯入表情圖' }).waitFor();

    await page.getByTestId('emoji-file-input').setInputFiles(sheetFile);
    await page.getByTestId('emoji-grid').waitFor();
    // Picked, not written: the sheet waits in the daemon's memory until 確認儲存.
    await page.getByTestId('emoji-sheet-status').getByText('尚未儲存').waitFor();
    expect(fs.existsSync(emojis())).toBe(false);
    expect(await fieldValue(page, 'grid-columns-1')).toBe(227); // the default: thirds of 680

    // Drag the left edge onto the end of the white margin with the mouse…
    const stage = (await page.getByTestId('emoji-grid').boundingBox())!;
    const leftEdge = page.getByRole('slider', { name: '格線：左邊界' });
    const handle = (await leftEdge.boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(stage.x + (24 / 680) * stage.width, handle.y + handle.height / 2, { steps: 8 });
    await page.mouse.up();
    const left = await fieldValue(page, 'grid-columns-0');
    expect(Math.abs(left - 24)).toBeLessThanOrEqual(3);
    // …and the top edge with the keyboard: Shift+↓ twice is 20 px, ↓ four times 4 more.
    const topEdge = page.getByRole('slider', { name: '格線：上邊界' });
    await topEdge.focus();
    for (const key of ['Shift+ArrowDown', 'Shift+ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown'])
      await page.keyboard.press(key);
    expect(await topEdge.getAttribute('aria-valuenow')).toBe('24');
    expect(await fieldValue(page, 'grid-rows-0')).toBe(24);
    // The rest by exact values: gutters of 16 px, lines at the gutters' centres, the far margins.
    const exact: [string, number][] = [
      ['grid-gutter-x', 16],
      ['grid-gutter-y', 16],
      ['grid-columns-3', 656],
      ['grid-rows-3', 656],
      ['grid-columns-1', 232],
      ['grid-columns-2', 448],
      ['grid-rows-1', 232],
      ['grid-rows-2', 448],
    ];
    for (const [testId, value] of exact) {
      await page.getByTestId(testId).fill(String(value));
      await page.getByTestId(testId).press('Enter');
      expect(await fieldValue(page, testId)).toBe(value);
    }
    const columns = await Promise.all([0, 1].map((index) => fieldValue(page, `grid-columns-${index}`)));
    await page.getByTestId('emoji-previews').locator('canvas').first().waitFor();

    await page.getByRole('button', { name: '檢視並儲存' }).click();
    const table = page.getByTestId('emoji-signature-table');
    await table.waitFor();
    const row = table.locator('tr[data-field="signature"]');
    expect(await row.getAttribute('data-changed')).toBe('true');
    expect(await row.locator('.diff-old').innerText()).toBe('🐆');
    expect(await row.locator('.diff-new').innerText()).toContain('優先使用小豹專屬心情 emoji 圖表');
    expect(await page.getByTestId('emoji-review-cells').locator('img').count()).toBe(9);
    // Shown, not written (ROLE-5).
    expect(fs.existsSync(path.join(emojis(), 'engineer01-emotions-sheet-happy.png'))).toBe(false);
    expect(identity()).not.toContain('emotions-sheet');

    await page.getByRole('button', { name: '確認儲存' }).click();
    await page.getByTestId('emoji-sheet-status').getByText('已用於簽名 emoji').waitFor();
    await page.getByTestId('emoji-saved-cells').waitFor();
    const closeNotice = page.getByRole('button', { name: '關閉通知' });
    while ((await closeNotice.count()) > 0) await closeNotice.first().click();
    await saveScreenshot(page, 'emoji-sheet');

    expect(fs.readFileSync(path.join(emojis(), 'engineer01-emotions-sheet.png')).equals(fs.readFileSync(sheetFile))).toBe(true);
    const cells = EMOJI_MOODS.map((mood) => path.join(emojis(), `engineer01-emotions-sheet-${mood.id}.png`));
    for (const file of cells) expect(fs.existsSync(file)).toBe(true);
    // The happy cell starts at the dragged left edge and ends half a gutter before the next line;
    // the expectant one is exactly its 200 × 200 px cell.
    expect((await sharp(cells[0]!).metadata()).width).toBe(columns[1]! - 8 - columns[0]!);
    const expectant = await sharp(cells[8]!).metadata();
    expect([expectant.width, expectant.height]).toEqual([200, 200]);
    expect(sameColour(await dominantColour(cells[0]!), SHEET_COLOURS[0]!)).toBe(true);
    expect(sameColour(await dominantColour(cells[8]!), SHEET_COLOURS[8]!)).toBe(true);
    const grid = JSON.parse(fs.readFileSync(path.join(emojis(), 'engineer01-emotions-sheet.grid.json'), 'utf8')) as {
      columns: number[];
      rows: number[];
      gutter: { x: number };
    };
    expect(grid.columns[0]).toBe(columns[0]);
    expect(grid.rows[0]).toBe(24);
    expect(grid.gutter.x).toBe(16);
    expect(grid.columns.slice(1)).toEqual([232, 448, 656]);
    const text = identity();
    expect(text).toContain('## 簽名 emoji');
    expect(text).toContain('`~/roles/.assets/emojis/engineer01-emotions-sheet.png`');
    expect(text).toContain('emoji: 🐆');
    expect(pageProblems(page)).toEqual([]);
  });

  it('imports by drag and drop, and shows why a file that is not a sheet image is refused', async () => {
    const { page, sheetFile } = await open();
    await page.evaluate(() => (window.location.hash = '#/roles/ENGINEER01/emoji'));
    const zone = page.locator('section.sheet-drop');
    await zone.waitFor();
    const dropFile = async (name: string, bytes: Buffer, type: string) => {
      const transfer = await page.evaluateHandle(
        ({ name, base64, type }) => {
          const data = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
          const dt = new DataTransfer();
          dt.items.add(new File([data], name, { type }));
          return dt;
        },
        { name, base64: bytes.toString('base64'), type },
      );
      for (const event of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(event, { dataTransfer: transfer });
    };

    // A GIF named .png passes the page's check by name; main reads the bytes and refuses it.
    await dropFile('偽裝.png', (await makeSheet({ format: 'gif' })).bytes, 'image/png');
    const notice = page.getByRole('alert');
    await notice.getByText('無法讀取這張圖片').waitFor();
    // The UI's own words for the error's code, not main's English sentence.
    expect(await notice.innerText()).not.toContain('GIF image');
    expect(fs.existsSync(emojis())).toBe(false);

    await dropFile('小豹.png', fs.readFileSync(sheetFile), 'image/png');
    await page.getByTestId('emoji-grid').waitFor();
    await page.getByTestId('emoji-sheet-status').getByText('尚未儲存').waitFor();
    expect(fs.existsSync(emojis())).toBe(false);
    // The browser logs the refused call's answer as nothing: no console errors either way.
    expect(pageProblems(page)).toEqual([]);
  });
});
