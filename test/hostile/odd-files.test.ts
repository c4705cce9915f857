import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ACTIVE, claudePayload, makeHookHome, runHook, type HookHome } from '../hooks/hook-kit.js';
import { plantFile, readLogs, runKiokuChild, SMALL_HEAP } from './hostile-kit.js';

/**
 * Issue 14's other hostile files, through recall and the SessionStart hook (daemon down): a huge
 * memory file, nesting far deeper than any memory field, and bytes that are not UTF-8. Each is
 * named and skipped (or, nested, read as text), the other memories are still served, and the file
 * is left byte for byte as it was.
 *
 * Only the huge file failed before: it was read, parsed, indexed and segmented whole (120 MB ran
 * recall out of heap). Deep nesting (js-yaml stops at 100 levels; the front matter reader then
 * reads the line as text) and invalid UTF-8 (every reader decodes strictly) were already refused;
 * their tests keep it that way.
 */
let home: HookHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function expectServedAndUntouched(h: HookHome, file: string, logged: RegExp | undefined): Promise<void> {
  const bytes = fs.readFileSync(file);
  const recall = await runKiokuChild(['memory', 'recall', '--role', ACTIVE.id, '--query', '黑咖啡'], h.env);
  expect(recall.signal).toBeNull();
  expect(recall.code).toBe(0);
  expect(recall.stdout).toContain('老大喜歡早上喝黑咖啡');
  if (logged) expect(recall.stderr).toMatch(logged);
  h.transcript('sess-odd');
  const load = await runHook('session-start', claudePayload(h, 'session-start', 'sess-odd'), { ...h.env, ...SMALL_HEAP });
  expect(load.signal).toBeNull();
  expect(load.code).toBe(0);
  expect(load.stdout).toContain(ACTIVE.name);
  expect(load.stdout).toContain('黑咖啡');
  if (logged) expect(readLogs(h.config().paths.logsDir)).toMatch(logged);
  // Buffer.equals: toEqual walks 8 MB byte by byte.
  expect(fs.readFileSync(file).equals(bytes), 'the file is unchanged').toBe(true);
}

describe('odd memory files are named and skipped, never fatal, never changed', () => {
  it('a huge memory file (8 MB) is skipped with its size and what to do', async () => {
    home = await makeHookHome();
    const line = '奇怪的巨大檔案，一直重複同一句話。'.repeat(20);
    const file = plantFile(
      home.memoryHome,
      ACTIVE.id,
      'inbox',
      '20260310-130000-b1b1.md',
      `---\nid: 20260310-130000-b1b1\nsummary: 奇怪的巨大檔案\n---\n${`${line}\n`.repeat(Math.ceil((8 * 1024 ** 2) / Buffer.byteLength(line)))}`,
    );
    expect(fs.statSync(file).size).toBeGreaterThan(8 * 1024 ** 2);
    await expectServedAndUntouched(
      home,
      file,
      new RegExp(`${escape(file)}: the file is 8\\.\\d MB, more than a memory file may be \\(1\\.0 MB\\)`),
    );
    const status = await runKiokuChild(['status'], home.env);
    expect(status.code).toBe(0);
    expect(status.stdout + status.stderr).toContain(file);
  });

  it('nesting thousands of levels deep is read as text (guard: already so)', async () => {
    home = await makeHookHome();
    const depth = 20_000;
    const nested = `${'['.repeat(depth)}奇怪${']'.repeat(depth)}`;
    const block = Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n');
    const file = plantFile(
      home.memoryHome,
      ACTIVE.id,
      'daily',
      '20260301-100000-d1d1.md',
      `---\nid: 20260301-100000-d1d1\nsummary: 奇怪的深層巢狀\ntags: ${nested}\nnest:\n${block}\n---\n內文\n`,
    );
    await expectServedAndUntouched(home, file, undefined);
  });

  it('bytes that are not UTF-8 are named and skipped (guard: already so)', async () => {
    home = await makeHookHome();
    const file = plantFile(
      home.memoryHome,
      ACTIVE.id,
      'daily',
      '20260301-100000-e1e1.md',
      Buffer.from([
        ...Buffer.from('---\nid: 20260301-100000-e1e1\nsummary: 奇怪 '),
        0xff,
        0xfe,
        0xc3,
        0x28,
        ...Buffer.from('\n---\n內文\n'),
      ]),
    );
    await expectServedAndUntouched(home, file, new RegExp(`${escape(file)}: the file is not UTF-8 text`));
  });
});
