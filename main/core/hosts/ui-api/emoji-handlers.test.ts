import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { EMOJI_MOODS, EMOJI_SHEET_LIMITS, defaultEmojiGrid, type EmojiGrid } from '../../../../common/emoji-grid.js';
import type {
  RoleAvatars,
  EmojiGridPreview,
  EmojiSavePlan,
  EmojiSheetSaved,
  EmojiSheetView,
  UiResult,
} from '../../../../common/ui-contract.js';
import { SHEET_COLOURS, dominantColour, makeSheet, sameColour } from '../../../../test/helpers/emoji-sheet-fixture.js';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import { fixedClock } from '../../platform/config/clock.js';
import { loadConfig } from '../../platform/config/config.js';
import { createLogger } from '../../platform/config/log.js';
import { createRole, planRoleChange } from '../../store/roles/role-editor.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import { startWebServer, type WebServer } from './web-server.js';

// The emoji channels over the headless server's HTTP API, checked against the files on disk.
let home: TempHome;
let server: WebServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  home?.cleanup();
});

const TOKEN = 'test-token-emoji-0123456789';

async function start(): Promise<void> {
  home = makeTempHome();
  const config = loadConfig(home.env, { clock: fixedClock('2026-03-04T10:00:00+08:00') });
  const plan = planRoleChange(config, { prefix: 'ENGINEER', name: '小豹', emoji: '🐆', nature: '冷靜可靠。', vibe: '簡潔直白。' });
  if (plan.kind !== 'create') throw new Error('expected a new role');
  createRole(config, plan);
  const status = () => ({
    pid: 42,
    startedAt: '2026-03-04T10:00:00+08:00',
    version: 'test',
    memoryHome: config.paths.memoryHome,
    spoolPending: 0,
  });
  server = await startWebServer(config, { logger: createLogger({ clock: config.clock }), status, token: TOKEN, rendererDir: null });
}

async function call<T>(channel: string, body: unknown): Promise<{ status: number; result: UiResult<T> }> {
  const response = await fetch(`http://127.0.0.1:${server!.port}/api/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-kioku-token': TOKEN },
    body: JSON.stringify(body),
  });
  return { status: response.status, result: (await response.json()) as UiResult<T> };
}

async function value<T>(channel: string, body: unknown): Promise<T> {
  const { result } = await call<T>(channel, body);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

const emojis = () => path.join(home.roleHome, '.assets', 'emojis');

describe('the emoji channels over HTTP', () => {
  it('imports, previews, plans and saves a sheet; the cells on disk are the moods’ colours and the signature points at the sheet', async () => {
    await start();
    expect(await value<EmojiSheetView>('emoji.get', { id: 'ENGINEER01' })).toMatchObject({
      sheet: null,
      grid: null,
      versions: 0,
      signature: '🐆',
    });

    const { bytes } = await makeSheet({ cell: 100 });
    const untouched = snapshotTree(home.roleHome);
    const imported = await value<EmojiSheetView>('emoji.importSheet', {
      id: 'ENGINEER01',
      fileName: '小豹.png',
      data: bytes.toString('base64'),
    });
    expect(imported.sheet).toMatchObject({
      name: 'engineer01-emotions-sheet.png',
      width: 300,
      height: 300,
      inSignature: false,
      staged: true,
    });
    expect(imported.sheet!.dataUrl.startsWith('data:image/png;base64,')).toBe(true);
    expect(imported.grid).toEqual(defaultEmojiGrid(300, 300));
    expect(imported.gridSaved).toBe(false);
    // Picked, not written: the role's folder is as it was until the save is confirmed.
    expect(snapshotTree(home.roleHome)).toEqual(untouched);

    const grid: EmojiGrid = { ...defaultEmojiGrid(300, 300), columns: [0, 130, 200, 300] };
    const preview = await value<EmojiGridPreview>('emoji.previewGrid', {
      id: 'ENGINEER01',
      sheet: 'engineer01-emotions-sheet.png',
      grid,
      size: 64,
    });
    expect(preview.cells.map((cell) => cell.mood)).toEqual(EMOJI_MOODS.map((mood) => mood.id));
    expect(preview.cells[0]!.rect).toEqual({ x: 0, y: 0, width: 130, height: 100 });
    const previewPng = Buffer.from(preview.cells[0]!.dataUrl.split(',')[1]!, 'base64');
    expect((await sharp(previewPng).metadata()).width).toBeLessThanOrEqual(64);

    const before = snapshotTree(home.root);
    const plan = await value<EmojiSavePlan>('emoji.planSave', { id: 'ENGINEER01', sheet: 'engineer01-emotions-sheet.png', grid });
    expect(plan.change).toMatchObject({ field: 'signature', old: '🐆', changed: true });
    expect(plan.files).toHaveLength(12);
    expect(plan.files[0]).toBe(path.join(emojis(), 'engineer01-emotions-sheet.png'));
    expect(snapshotTree(home.root)).toEqual(before);

    // A token for another grid is refused, and nothing is written.
    const otherGrid = defaultEmojiGrid(300, 300);
    const refused = await call('emoji.saveSheet', {
      id: 'ENGINEER01',
      sheet: 'engineer01-emotions-sheet.png',
      grid: otherGrid,
      token: plan.token,
    });
    expect(refused.result).toMatchObject({ ok: false, error: { code: 'CONFIRM_NEEDED' } });
    expect(snapshotTree(home.root)).toEqual(before);

    const saved = await value<EmojiSheetSaved>('emoji.saveSheet', {
      id: 'ENGINEER01',
      sheet: 'engineer01-emotions-sheet.png',
      grid,
      token: plan.token,
    });
    expect(saved.signatureChanged).toBe(true);
    expect(saved.cells).toHaveLength(9);
    expect((await sharp(saved.cells[0]!).metadata()).width).toBe(130);
    for (const index of [0, 4, 8]) expect(sameColour(await dominantColour(saved.cells[index]!), SHEET_COLOURS[index]!)).toBe(true);
    expect(readRoleDefinition(home.roleHome, 'ENGINEER01').signature).toContain('engineer01-emotions-sheet.png');
    expect(saved.view).toMatchObject({ gridSaved: true, grid, sheet: { inSignature: true } });
    expect(saved.view.cells).toHaveLength(9);
    expect(fs.readFileSync(path.join(emojis(), 'engineer01-emotions-sheet.png')).equals(bytes)).toBe(true);
    // The saved sheet's happy cell now stands for the role on cards and the top bar.
    const { avatars } = await value<RoleAvatars>('emoji.avatars', {});
    expect(avatars.map((avatar) => avatar.id)).toEqual(['ENGINEER01']);
    expect(sameColour(await dominantColour(Buffer.from(avatars[0]!.dataUrl.split(',')[1]!, 'base64')), SHEET_COLOURS[0]!)).toBe(true);
  });

  it('leaves nothing in the role folder when a picked sheet is never confirmed, however often one is picked', async () => {
    await start();
    const before = snapshotTree(home.roleHome);
    const listing = () => fs.readdirSync(home.roleHome, { recursive: true }).map(String).sort();
    const names = listing();
    for (const cell of [100, 120]) {
      const { bytes } = await makeSheet({ cell });
      const view = await value<EmojiSheetView>('emoji.importSheet', {
        id: 'ENGINEER01',
        fileName: 'a.png',
        data: bytes.toString('base64'),
      });
      const grid = view.grid!;
      await value('emoji.previewGrid', { id: 'ENGINEER01', sheet: view.sheet!.name, grid, size: 32 });
      await value('emoji.planSave', { id: 'ENGINEER01', sheet: view.sheet!.name, grid });
    }
    expect(await value<RoleAvatars>('emoji.avatars', {})).toEqual({ avatars: [] });
    // The user pressed 取消: no sheet, no -2.png, no grid file, no cells.
    expect(listing()).toEqual(names);
    expect(snapshotTree(home.roleHome)).toEqual(before);
    expect(await value<EmojiSheetView>('emoji.get', { id: 'ENGINEER01' })).toMatchObject({ sheet: null, versions: 0 });
    // A name that was never stored nor is waiting now gets the UI's own code.
    const gone = await call('emoji.planSave', {
      id: 'ENGINEER01',
      sheet: 'engineer01-emotions-sheet-7.png',
      grid: defaultEmojiGrid(300, 300),
    });
    expect(gone.result).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', reason: 'emoji.notStaged' } });
  });

  it('takes an upload over 1 MiB on the import channel only, and refuses what is not a sheet image by name', async () => {
    await start();
    // Noise does not compress: a 650×650 PNG of it without compression is over 1 MiB.
    const noise = Buffer.alloc(650 * 650 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 650, height: 650, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(1024 * 1024);
    expect(big.length).toBeLessThan(EMOJI_SHEET_LIMITS.maxBytes);
    const imported = await value<EmojiSheetView>('emoji.importSheet', {
      id: 'ENGINEER01',
      fileName: 'big.png',
      data: big.toString('base64'),
    });
    expect(imported.sheet).toMatchObject({ width: 650, height: 650 });
    // Other channels keep the 1 MiB cap.
    const other = await call('roles.get', { id: 'ENGINEER01', padding: 'x'.repeat(1024 * 1024 + 10) });
    expect(other.status).toBe(413);

    const gif = (await makeSheet({ format: 'gif' })).bytes;
    const refused = await call('emoji.importSheet', { id: 'ENGINEER01', fileName: 'sheet.gif', data: gif.toString('base64') });
    expect(refused.result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_FILE', reason: 'emoji.badImage', message: expect.stringContaining('"sheet.gif" is a GIF image') },
    });
    const bad = await call('emoji.get', { id: 'ENGINEER01', sheet: '../ENGINEER01.identity.md' });
    expect(bad.result).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const foreign = await call('emoji.get', { id: 'ENGINEER01', sheet: 'muse01-emotions-sheet.png' });
    expect(foreign.result).toMatchObject({ ok: false, error: { code: 'BAD_USAGE' } });
  });

  it('shows the default grid and says why when the grid file is broken', async () => {
    await start();
    fs.mkdirSync(emojis(), { recursive: true });
    fs.writeFileSync(path.join(emojis(), 'engineer01-emotions-sheet.png'), (await makeSheet()).bytes);
    fs.writeFileSync(path.join(emojis(), 'engineer01-emotions-sheet.grid.json'), 'not json');
    const view = await value<EmojiSheetView>('emoji.get', { id: 'ENGINEER01' });
    expect(view.grid).toEqual(defaultEmojiGrid(300, 300));
    expect(view.gridSaved).toBe(false);
    expect(view.gridProblem).toContain('engineer01-emotions-sheet.grid.json is not valid JSON');
  });
});
