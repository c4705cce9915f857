import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EMOJI_MOODS } from '../../../common/emoji-grid.js';
import { bundleEntry } from '../../../test/helpers/bundle-entry.js';
import { SHEET_COLOURS, dominantColour, makeSheet, sameColour } from '../../../test/helpers/emoji-sheet-fixture.js';
import { makeTempHome, snapshotTree, type TempHome } from '../../../test/helpers/temp-home.js';
import { exitCodeFor } from '../../../common/errors.js';
import { createRole, planRoleChange } from '../../core/store/roles/role-editor.js';
import { readRoleDefinition } from '../../core/store/roles/role-repository.js';
import { reportCliError } from '../cli-errors.js';
import { createCliContext } from '../cli-context.js';
import { runEmojiSheet } from './emoji-sheet-run.js';

// The first test runs a real `kioku` process from the sources (dist/ may be older), so exit
// codes and stdout are what a script sees; the others run the command in-process (a process
// start costs seconds on a busy machine) with the same error reporting and exit codes.
let kiokuEntry: string;
beforeAll(() => {
  kiokuEntry = bundleEntry('e2e/helpers/kioku-entry.ts');
});

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function kioku(home: TempHome, ...args: string[]) {
  const result = spawnSync(process.execPath, [kiokuEntry, ...args], { env: home.env, encoding: 'utf8', input: '', timeout: 60_000 });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** `kioku role emoji-sheet <ID> <image> [flags]` in this process: stdout, stderr and the exit code. */
async function emojiSheet(home: TempHome, id: string, image: string, flags: { crop?: boolean; confirm?: string; json?: boolean } = {}) {
  const out = { code: 0, stdout: '', stderr: '' };
  const ctx = createCliContext(home.env, { stdout: (text) => (out.stdout += text), stderr: (text) => (out.stderr += text) });
  ctx.interactive = false;
  try {
    await runEmojiSheet(ctx, id, image, flags);
  } catch (error) {
    out.code = reportCliError(error, (text) => (out.stderr += text), {});
    expect(out.code).toBe(exitCodeFor(error));
  }
  return out;
}

async function homeWithSheet(spec: Parameters<typeof makeSheet>[0] = {}): Promise<{ home: TempHome; sheet: string }> {
  const home = makeTempHome({ KIOKU_NOW: '2026-03-04T05:06:07+08:00' });
  homes.push(home);
  const plan = planRoleChange(home.config(), { prefix: 'ENGINEER', name: '小豹', emoji: '🐆', nature: '冷靜可靠。', vibe: '簡潔直白。' });
  if (plan.kind !== 'create') throw new Error('expected a new role');
  createRole(home.config(), plan);
  const sheet = path.join(home.root, '小豹 表情.png');
  fs.writeFileSync(sheet, (await makeSheet(spec)).bytes);
  return { home, sheet };
}

const emojis = (home: TempHome) => path.join(home.roleHome, '.assets', 'emojis');

describe('kioku role emoji-sheet', () => {
  it('shows the old/new signature and a token, exits 3 and writes nothing; --confirm TOKEN then stores, cuts and writes back', async () => {
    const { home, sheet } = await homeWithSheet();
    const before = snapshotTree(home.root);
    const shown = kioku(home, 'role', 'emoji-sheet', 'ENGINEER01', sheet, '--crop');
    expect(shown.code).toBe(3);
    expect(shown.stdout).toContain('old:\n  🐆');
    expect(shown.stdout).toContain('優先使用小豹專屬心情 emoji 圖表');
    expect(shown.stdout).toContain('engineer01-emotions-sheet.png (new, 300×300)');
    expect(shown.stderr).toContain('nothing was written');
    const token = /--confirm ([0-9a-f]{10})/.exec(shown.stdout)?.[1];
    expect(token).toBeDefined();
    expect(snapshotTree(home.root)).toEqual(before);

    const wrong = await emojiSheet(home, 'ENGINEER01', sheet, { crop: true, confirm: '0000000000' });
    expect(wrong.code).toBe(3);
    expect(wrong.stdout).toContain(`--confirm ${token}`);
    expect(snapshotTree(home.root)).toEqual(before);

    const applied = kioku(home, 'role', 'emoji-sheet', 'ENGINEER01', sheet, '--crop', '--confirm', token!);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('now points at the sheet');
    const names = fs.readdirSync(emojis(home)).sort();
    expect(names).toEqual(
      [
        'engineer01-emotions-sheet.grid.json',
        'engineer01-emotions-sheet.png',
        ...EMOJI_MOODS.map((mood) => `engineer01-emotions-sheet-${mood.id}.png`),
      ].sort(),
    );
    expect(sameColour(await dominantColour(path.join(emojis(home), 'engineer01-emotions-sheet-sleepy.png')), SHEET_COLOURS[7]!)).toBe(true);
    expect(readRoleDefinition(home.roleHome, 'ENGINEER01').signature).toContain('`~/roles/.assets/emojis/engineer01-emotions-sheet.png`');
  });

  it('never overwrites a stored sheet: a second image becomes version 2', async () => {
    const { home, sheet } = await homeWithSheet();
    const token = async () => JSON.parse((await emojiSheet(home, 'ENGINEER01', sheet, { json: true })).stdout).token as string;
    expect((await emojiSheet(home, 'ENGINEER01', sheet, { confirm: await token() })).code).toBe(0);
    const second = await emojiSheet(home, 'ENGINEER01', sheet, { json: true });
    expect(second.code).toBe(3);
    const shown = JSON.parse(second.stdout) as {
      confirmNeeded: boolean;
      token: string;
      sheet: string;
      changes: { field: string; changed: boolean }[];
    };
    expect(shown).toMatchObject({ confirmNeeded: true, changes: [{ field: 'signature', changed: true }] });
    expect(path.basename(shown.sheet)).toBe('engineer01-emotions-sheet-2.png');
    const saved = await emojiSheet(home, 'ENGINEER01', sheet, { json: true, confirm: shown.token });
    expect(saved.code).toBe(0);
    expect(JSON.parse(saved.stdout)).toMatchObject({
      action: 'saved',
      storedSheet: true,
      width: 300,
      height: 300,
      cells: [],
      signatureChanged: true,
    });
    expect(fs.readdirSync(emojis(home)).sort()).toEqual(['engineer01-emotions-sheet-2.png', 'engineer01-emotions-sheet.png']);
    expect(readRoleDefinition(home.roleHome, 'ENGINEER01').signature).toContain('engineer01-emotions-sheet-2.png');
  });

  it('re-cuts a stored sheet by its hand-edited grid file, without asking when the signature stays', async () => {
    const { home, sheet } = await homeWithSheet({ cell: 100, margin: 20 });
    const first = JSON.parse((await emojiSheet(home, 'ENGINEER01', sheet, { crop: true, json: true })).stdout) as { token: string };
    expect((await emojiSheet(home, 'ENGINEER01', sheet, { crop: true, confirm: first.token })).code).toBe(0);
    const gridFile = path.join(emojis(home), 'engineer01-emotions-sheet.grid.json');
    const grid = JSON.parse(fs.readFileSync(gridFile, 'utf8')) as Record<string, unknown>;
    // The user sets the margins by hand: 20 px of white around the cells.
    fs.writeFileSync(gridFile, JSON.stringify({ ...grid, columns: [20, 120, 220, 320], rows: [20, 120, 220, 320] }));
    const stored = path.join(emojis(home), 'engineer01-emotions-sheet.png');
    const recut = await emojiSheet(home, 'ENGINEER01', stored, { crop: true, json: true });
    expect(recut.stderr).toBe('');
    expect(recut.code).toBe(0);
    expect(JSON.parse(recut.stdout)).toMatchObject({ storedSheet: false, signatureChanged: false });
    const happy = path.join(emojis(home), 'engineer01-emotions-sheet-happy.png');
    expect((await sharp(happy).metadata()).width).toBe(100);
    expect(sameColour(await dominantColour(happy), SHEET_COLOURS[0]!)).toBe(true);
    expect(fs.readdirSync(emojis(home)).filter((name) => /-emotions-sheet(-\d+)?\.png$/.test(name))).toEqual([
      'engineer01-emotions-sheet.png',
    ]);
  });

  it('refuses other image formats and missing files (exit 1) and bad IDs (exit 2), naming what was wrong', async () => {
    const { home } = await homeWithSheet();
    const gif = path.join(home.root, 'sheet.gif');
    fs.writeFileSync(gif, (await makeSheet({ format: 'gif' })).bytes);
    const before = snapshotTree(home.root);
    const refused = await emojiSheet(home, 'ENGINEER01', gif, { crop: true });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`kioku: ${gif} is a GIF image; an emoji sheet must be PNG, JPEG (JPG), WEBP`);
    expect(refused.stderr).toContain('→ convert it to PNG');
    const missing = await emojiSheet(home, 'ENGINEER01', path.join(home.root, 'nope.png'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no image file');
    const badId = await emojiSheet(home, 'engineer01', gif);
    expect(badId.code).toBe(2);
    expect(snapshotTree(home.root)).toEqual(before);
  });
});
