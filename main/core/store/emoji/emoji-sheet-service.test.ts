import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { EMOJI_MOODS, defaultEmojiGrid, type EmojiGrid } from '../../../../common/emoji-grid.js';
import { LEGACY_HELPER } from '../../../../test/cli/role-test-fixtures.js';
import { SHEET_COLOURS, dominantColour, makeSheet, sameColour } from '../../../../test/helpers/emoji-sheet-fixture.js';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import { readRoleDefinition } from '../roles/role-repository.js';
import { createRole, planRoleChange } from '../roles/role-editor.js';
import { emojiAssetsDir, listSheetNames } from './emoji-sheet-files.js';
import { importSheet, planSheetSave, saveSheet } from './emoji-sheet-service.js';
import { readSheetImage } from './sheet-image.js';

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

/** A temp home with ENGINEER01 (小豹 🐆), whose signature section is the emoji. */
function homeWithRole(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-03-04T05:06:07+08:00' });
  homes.push(home);
  const plan = planRoleChange(home.config(), {
    prefix: 'ENGINEER',
    name: '小豹',
    emoji: '🐆',
    nature: '冷靜可靠的資深工程師。',
    vibe: '簡潔直白。',
  });
  if (plan.kind !== 'create') throw new Error('expected a new role');
  createRole(home.config(), plan);
  return home;
}

const emojis = (home: TempHome) => emojiAssetsDir(home.config().paths.assetsDir);

describe('reading a sheet image', () => {
  it('takes PNG as it is, and JPEG and WebP converted to PNG', async () => {
    const png = await makeSheet({ format: 'png' });
    const read = await readSheetImage(png.bytes, 'sheet.png');
    expect(read).toMatchObject({ format: 'png', width: 300, height: 300 });
    expect(read.png.equals(png.bytes)).toBe(true);
    for (const format of ['jpeg', 'webp'] as const) {
      const image = await readSheetImage((await makeSheet({ format })).bytes, `sheet.${format}`);
      expect(image.format).toBe(format);
      expect((await sharp(image.png).metadata()).format).toBe('png');
    }
  });

  it('refuses other formats, naming the file and what is accepted', async () => {
    const gif = await makeSheet({ format: 'gif' });
    await expect(readSheetImage(gif.bytes, '/tmp/小豹.gif')).rejects.toThrow(
      expect.objectContaining({
        code: 'INVALID_FILE',
        message: expect.stringMatching(/\/tmp\/小豹\.gif is a GIF image; an emoji sheet must be PNG, JPEG \(JPG\), WEBP/),
      }),
    );
    await expect(readSheetImage(Buffer.from('not an image at all'), 'notes.txt')).rejects.toThrow(
      expect.objectContaining({ code: 'INVALID_FILE', message: expect.stringContaining('notes.txt is not an image') }),
    );
  });

  it('refuses huge images by bytes and by pixels, and tiny ones, with the limit named', async () => {
    await expect(readSheetImage(Buffer.alloc(10 * 1024 * 1024 + 1), 'big.png')).rejects.toThrow(
      expect.objectContaining({
        code: 'LIMIT_EXCEEDED',
        message: expect.stringMatching(/big\.png is 10\.0 MiB; an emoji sheet may be at most 10 MiB/),
      }),
    );
    const wide = await sharp({ create: { width: 9000, height: 60, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    await expect(readSheetImage(wide, 'wide.png')).rejects.toThrow(
      expect.objectContaining({
        code: 'LIMIT_EXCEEDED',
        message: expect.stringContaining('wide.png is 9000×60 px; an emoji sheet may be at most 8192 px'),
      }),
    );
    const tiny = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    await expect(readSheetImage(tiny, 'tiny.png')).rejects.toThrow(
      expect.objectContaining({ message: expect.stringContaining('needs at least 48×48') }),
    );
  });
});

describe('importing sheets', () => {
  it('stores each import as a new version and never overwrites one', async () => {
    const home = homeWithRole();
    const config = home.config();
    const first = await importSheet(config, 'ENGINEER01', (await makeSheet()).bytes, 'a.png');
    const second = await importSheet(config, 'ENGINEER01', (await makeSheet({ cell: 50 })).bytes, 'b.png');
    expect(first.name).toBe('engineer01-emotions-sheet.png');
    expect(second.name).toBe('engineer01-emotions-sheet-2.png');
    expect(listSheetNames(config.paths.assetsDir, 'ENGINEER01')).toEqual([first.name, second.name]);
    expect((await sharp(first.path).metadata()).width).toBe(300);
    expect((await sharp(second.path).metadata()).width).toBe(150);
  });

  it('refuses a role that does not exist and writes nothing', async () => {
    const home = homeWithRole();
    await expect(importSheet(home.config(), 'GHOST01', (await makeSheet()).bytes, 'a.png')).rejects.toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
    expect(fs.existsSync(emojis(home))).toBe(false);
  });
});

describe('cutting and writing back', () => {
  it('cuts nine cells by the grid, each the colour of its mood cell, and points the signature at the sheet after confirmation', async () => {
    const home = homeWithRole();
    const config = home.config();
    const { name } = await importSheet(config, 'ENGINEER01', (await makeSheet({ cell: 100, margin: 10, gutter: 20 })).bytes, 'sheet.png');
    const grid: EmojiGrid = { columns: [10, 120, 240, 350], rows: [10, 120, 240, 350], gutter: { x: 20, y: 20 } };
    const roleBefore = fs.readFileSync(path.join(home.roleHome, 'ENGINEER01.identity.md'), 'utf8');

    const plan = await planSheetSave(config, 'ENGINEER01', { kind: 'stored', name }, { grid, cut: true });
    // The existing section (🐆) would be replaced: ROLE-5 wants a confirmation.
    expect(plan.needsConfirm).toBe(true);
    expect(plan.change).toMatchObject({ field: 'signature', old: '🐆', changed: true });
    expect(plan.change.new).toContain('優先使用小豹專屬心情 emoji 圖表');
    expect(plan.change.new).toContain('用原本使用者輸入的 `🐆` 作為 fallback');
    expect(plan.change.new).toContain('第 1 列為開心／微笑／安心；第 2 列為擔心／驚訝／害羞；第 3 列為哭哭／想睡覺／期待');
    expect(plan.change.new).toContain(`~/roles/.assets/emojis/${name}`);
    // Planning writes nothing; neither does saving without the token.
    const before = snapshotTree(home.root);
    await expect(saveSheet(config, plan, undefined)).rejects.toThrow(expect.objectContaining({ code: 'CONFIRM_NEEDED' }));
    await expect(saveSheet(config, plan, 'abcdef0123')).rejects.toThrow(expect.objectContaining({ code: 'CONFIRM_NEEDED' }));
    expect(snapshotTree(home.root)).toEqual(before);

    const saved = await saveSheet(config, plan, plan.token);
    expect(saved.cells.map((file) => path.basename(file))).toEqual(EMOJI_MOODS.map((mood) => `engineer01-emotions-sheet-${mood.id}.png`));
    for (const [index, file] of saved.cells.entries()) {
      const meta = await sharp(file).metadata();
      expect([meta.width, meta.height]).toEqual([100, 100]);
      expect(sameColour(await dominantColour(file), SHEET_COLOURS[index]!)).toBe(true);
    }
    const gridFile = JSON.parse(fs.readFileSync(saved.gridFile!, 'utf8')) as Record<string, unknown>;
    expect(gridFile).toMatchObject({ version: 1, sheet: name, width: 360, height: 360, columns: grid.columns, gutter: grid.gutter });
    const role = readRoleDefinition(home.roleHome, 'ENGINEER01');
    expect(role.signature).toBe(plan.change.new);
    expect(role.signature).toContain('已切成 9 張單獨 PNG');
    expect(role.emoji).toBe('🐆'); // the fallback stays
    expect(role.nature).toBe('冷靜可靠的資深工程師。');
    expect(fs.readFileSync(path.join(home.roleHome, 'ENGINEER01.identity.md'), 'utf8')).not.toBe(roleBefore);
  });

  it('voids a token when the role file changed after the table was shown, writing nothing', async () => {
    const home = homeWithRole();
    const config = home.config();
    const { name } = await importSheet(config, 'ENGINEER01', (await makeSheet()).bytes, 'sheet.png');
    const plan = await planSheetSave(config, 'ENGINEER01', { kind: 'stored', name }, { cut: true });
    const identity = path.join(home.roleHome, 'ENGINEER01.identity.md');
    fs.appendFileSync(identity, '\n## 備註\n\n使用者剛剛手動改了檔案。\n');
    const before = snapshotTree(home.root);
    await expect(saveSheet(config, plan, plan.token)).rejects.toThrow(
      expect.objectContaining({ code: 'CONFIRM_NEEDED', message: expect.stringContaining('changed since') }),
    );
    expect(snapshotTree(home.root)).toEqual(before);
  });

  it('gives a different token for a different grid, and refuses a grid that does not fit the sheet', async () => {
    const home = homeWithRole();
    const config = home.config();
    const { name } = await importSheet(config, 'ENGINEER01', (await makeSheet()).bytes, 'sheet.png');
    const a = await planSheetSave(config, 'ENGINEER01', { kind: 'stored', name }, { grid: defaultEmojiGrid(300, 300), cut: true });
    const b = await planSheetSave(
      config,
      'ENGINEER01',
      { kind: 'stored', name },
      { grid: { ...defaultEmojiGrid(300, 300), columns: [0, 120, 200, 300] }, cut: true },
    );
    expect(a.token).not.toBe(b.token);
    await expect(saveSheet(config, b, a.token)).rejects.toThrow(expect.objectContaining({ code: 'CONFIRM_NEEDED' }));
    await expect(
      planSheetSave(
        config,
        'ENGINEER01',
        { kind: 'stored', name },
        { grid: { ...defaultEmojiGrid(300, 300), columns: [0, 100, 200, 400] }, cut: true },
      ),
    ).rejects.toThrow(expect.objectContaining({ code: 'BAD_USAGE', message: expect.stringContaining('outside the image') }));
  });

  it('re-cuts the signed sheet with a new grid without asking again (the section does not change)', async () => {
    const home = homeWithRole();
    const config = home.config();
    const { name } = await importSheet(config, 'ENGINEER01', (await makeSheet()).bytes, 'sheet.png');
    const first = await planSheetSave(config, 'ENGINEER01', { kind: 'stored', name }, { cut: true });
    await saveSheet(config, first, first.token);
    const again = await planSheetSave(
      config,
      'ENGINEER01',
      { kind: 'stored', name },
      { grid: { ...defaultEmojiGrid(300, 300), columns: [0, 150, 200, 300] }, cut: true },
    );
    expect(again.change.changed).toBe(false);
    expect(again.needsConfirm).toBe(false);
    const saved = await saveSheet(config, again, undefined);
    expect((await sharp(saved.cells[0]!).metadata()).width).toBe(150);
    // The grid file now holds the grid it was cut with, and is what the next plan starts from.
    const next = await planSheetSave(config, 'ENGINEER01', { kind: 'stored', name }, { cut: true });
    expect(next.grid.columns).toEqual([0, 150, 200, 300]);
  });

  it('refuses a broken grid file by name instead of cutting with it', async () => {
    const home = homeWithRole();
    const config = home.config();
    const { name } = await importSheet(config, 'ENGINEER01', (await makeSheet()).bytes, 'sheet.png');
    const gridFile = path.join(emojis(home), 'engineer01-emotions-sheet.grid.json');
    fs.writeFileSync(gridFile, '{ "version": 1, "columns": [0, 100, 200] }');
    await expect(planSheetSave(config, 'ENGINEER01', { kind: 'stored', name }, { cut: true })).rejects.toThrow(
      expect.objectContaining({ code: 'INVALID_FILE', message: expect.stringContaining(gridFile) }),
    );
  });

  it('stores a not-yet-stored image only when the save happens (the CLI path)', async () => {
    const home = homeWithRole();
    const config = home.config();
    const image = await readSheetImage((await makeSheet()).bytes, 'sheet.png');
    const plan = await planSheetSave(config, 'ENGINEER01', { kind: 'new', image }, { cut: false });
    expect(plan.storesSheet).toBe(true);
    expect(fs.existsSync(plan.sheetPath)).toBe(false);
    const saved = await saveSheet(config, plan, plan.token);
    expect(saved.cells).toEqual([]);
    expect(fs.readFileSync(saved.sheetPath).equals(image.png)).toBe(true);
    expect(readRoleDefinition(home.roleHome, 'ENGINEER01').signature).not.toContain('已切成');
  });

  it('writes a legacy single-file role in the two-file format, keeping its persona and leaving the old file', async () => {
    const home = homeWithRole();
    const config = home.config();
    fs.writeFileSync(path.join(home.roleHome, 'HELPER01.md'), LEGACY_HELPER);
    const { name } = await importSheet(config, 'HELPER01', (await makeSheet()).bytes, 'sheet.png');
    expect(name).toBe('helper01-emotions-sheet.png');
    const plan = await planSheetSave(config, 'HELPER01', { kind: 'stored', name }, { cut: true });
    expect(plan.change.old).toBe('🌸');
    await saveSheet(config, plan, plan.token);
    const role = readRoleDefinition(home.roleHome, 'HELPER01');
    expect(role.format).toBe('split');
    expect(role.signature).toContain('優先使用結衣專屬心情 emoji 圖表');
    expect(role.nature).toContain('溫柔體貼的 AI');
    expect(role.aliases).toEqual(['ゆい', 'Yui']);
    expect(fs.readFileSync(path.join(home.roleHome, 'HELPER01.md'), 'utf8')).toBe(LEGACY_HELPER);
  });
});
