import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { forgetMemories, forgottenArchiveDir } from './forget.js';
import { restoreForgotten } from './restore-forgotten.js';

const ROLE = 'TESTER01';
let home: TempHome;
beforeEach(() => {
  // Local times (no offset) in the zone the test runs in: a bare expires date ends with its local
  // day. At 07:00 it is still 2026-11-30 in UTC in Taipei and Kiritimati, so a UTC day would show.
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T07:00:00' });
});
afterEach(() => home.cleanup());

const old = (category: string, id: string, fields: Record<string, unknown> = {}) =>
  writeMemoryFixture(
    home.memoryHome,
    ROLE,
    category,
    id,
    { summary: id, priority: 1, hits: 0, memory_type: 'semantic', updated: '2026-10-01T00:00:00', ...fields },
    '舊的內容\n第二行',
  );

describe('memory restore (the inverse of forget)', () => {
  it('puts the original bytes back in their category and removes the archive', () => {
    const file = old('daily', 'walk-home');
    const original = fs.readFileSync(file);
    forgetMemories(home.config(), ROLE);
    expect(fs.existsSync(file)).toBe(false);
    const result = restoreForgotten(home.config(), ROLE, 'walk-home');
    expect(result).toMatchObject({ role: ROLE, id: 'walk-home', category: 'daily', path: file });
    expect(fs.readFileSync(file).equals(original)).toBe(true);
    expect(fs.existsSync(result.archive)).toBe(false);
    // Still old and unused: the next forget would take it again, and the caller is told why.
    expect(result.forgetAgain).toMatch(/^daily, not updated for 61 days/);
  });

  it('restores an expired memory into its own category (not only daily/other)', () => {
    old('important', 'one-time', { priority: 5, memory_type: 'rule', expires: '2026-11-30' });
    forgetMemories(home.config(), ROLE);
    const result = restoreForgotten(home.config(), ROLE, 'one-time.md.gz');
    expect(result.category).toBe('important');
    expect(fs.existsSync(path.join(home.memoryHome, ROLE, 'important', 'one-time.md'))).toBe(true);
  });

  it('refuses to overwrite an existing file and leaves the archive in place', () => {
    old('other', 'twin');
    forgetMemories(home.config(), ROLE);
    const again = old('other', 'twin', { summary: '新的同名記憶' });
    const before = fs.readFileSync(again);
    expect(() => restoreForgotten(home.config(), ROLE, 'twin')).toThrow(/already exists; the archive was left as it is/);
    expect(fs.readFileSync(again).equals(before)).toBe(true);
    expect(fs.existsSync(path.join(forgottenArchiveDir(home.memoryHome, ROLE), 'twin.md.gz'))).toBe(true);
  });

  it('names the missing archive, and asks for --category when the file does not say', () => {
    expect(() => restoreForgotten(home.config(), ROLE, 'nothing-here')).toThrow(/no forgotten memory "nothing-here" for TESTER01/);
    const dir = forgottenArchiveDir(home.memoryHome, ROLE);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'bare.md.gz'), zlib.gzipSync('---\nsummary: 沒寫分類\n---\n內容\n'));
    expect(() => restoreForgotten(home.config(), ROLE, 'bare')).toThrow(/does not say which category/);
    expect(restoreForgotten(home.config(), ROLE, 'bare', { category: 'other' }).path).toBe(
      path.join(home.memoryHome, ROLE, 'other', 'bare.md'),
    );
  });
});
