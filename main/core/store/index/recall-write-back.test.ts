import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { fixedClock, formatLocalIso } from '../../platform/config/clock.js';
import { tryAcquireLock } from '../../platform/fs/file-lock.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { memoryLockFile } from '../memory/memory-layout.js';
import { storedFolderMtime } from './folder-rows.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { recall } from './recall.js';

let home: TempHome;
let index: MemoryIndex;
let file: string;
const now = new Date('2026-03-10T12:00:00+08:00');
const clock = fixedClock(now);

beforeEach(() => {
  home = makeTempHome();
  index = openMemoryIndex(home.config().paths);
  file = writeMemory(home.memoryHome, 'interest', {
    id: 'coffee',
    summary: '喜歡喝黑咖啡',
    hits: 2,
    strength: 60,
    mood_color: 'brown', // a key Kioku does not know
    body: '主旨：黑咖啡，不加糖。',
  });
  writeMemory(home.memoryHome, 'interest', { id: 'tea', summary: '偶爾喝烏龍茶', hits: 0 });
});
afterEach(() => {
  index.close();
  home.cleanup();
});

function frontmatter(): Record<string, unknown> {
  return parseFrontmatter(fs.readFileSync(file, 'utf8')).data;
}

describe('recall write-back (MEM-4, PM-2)', () => {
  it('writes hits + 1, last_replayed = now and strength + 8 into each returned file, keeping unknown keys', () => {
    const result = recall(index, { role: ROLE, query: '咖啡', clock });
    expect(result.writeBack).toBe('written');
    expect(result.memories).toMatchObject([{ id: 'coffee', hits: 3, strength: 68, last_replayed: formatLocalIso(now) }]);
    expect(frontmatter()).toMatchObject({
      hits: 3,
      strength: 68,
      last_replayed: formatLocalIso(now),
      mood_color: 'brown',
      summary: '喜歡喝黑咖啡',
    });
    expect(fs.readFileSync(file, 'utf8')).toContain('主旨：黑咖啡，不加糖。');
  });

  it('touches only the memories it returned', () => {
    const tea = path.join(home.memoryHome, ROLE, 'interest', 'tea.md');
    const before = fs.readFileSync(tea, 'utf8');
    recall(index, { role: ROLE, query: '咖啡', clock });
    expect(fs.readFileSync(tea, 'utf8')).toBe(before);
  });

  it('caps strength at 100', () => {
    writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡', strength: 97 });
    recall(index, { role: ROLE, query: '咖啡', clock });
    expect(frontmatter().strength).toBe(100);
  });

  it('keeps the index in step with its own writes: counts go on, the folder is not diffed again', () => {
    recall(index, { role: ROLE, query: '咖啡', clock });
    const folder = path.join(home.memoryHome, ROLE, 'interest');
    expect(storedFolderMtime(index.db, ROLE, 'interest')).toBe(fs.statSync(folder).mtimeMs);
    const second = recall(index, { role: ROLE, query: '咖啡', clock });
    expect(second.memories[0]).toMatchObject({ hits: 4, strength: 76 });
  });

  it('writes nothing while the memory lock is held (a consolidation), and still answers', () => {
    const lock = tryAcquireLock(memoryLockFile(home.memoryHome, ROLE), { purpose: 'sleep: consolidation' });
    expect(lock).toBeDefined();
    const messages: string[] = [];
    const logging = openMemoryIndex(home.config().paths, {
      log: (_stage, _level, message) => messages.push(message),
      info: (_stage, message) => messages.push(message),
      warn: (_stage, message) => messages.push(message),
      error: (_stage, message) => messages.push(message),
    });
    // How long recall chose to wait for the lock, counted from the sleeps it asked for (the lock
    // waits with Atomics.wait): a bound that a slow machine cannot break, unlike a stopwatch.
    const sleeps = vi.spyOn(Atomics, 'wait');
    try {
      const before = fs.readFileSync(file, 'utf8');
      const result = recall(logging, { role: ROLE, query: '咖啡', clock });
      // Recall does not queue behind a consolidation (which may take minutes, and the other lock
      // users wait up to 10 s): it gives up on the write-back after a short wait of its own.
      const askedMs = sleeps.mock.calls.reduce((sum, call) => sum + Number(call[3] ?? 0), 0);
      expect(sleeps).toHaveBeenCalled(); // it did wait a little: the count above is live
      expect(askedMs).toBeLessThanOrEqual(250);
      expect(result.writeBack).toBe('skipped-locked');
      expect(result.memories.map((m) => m.id)).toEqual(['coffee']);
      expect(result.memories[0]).toMatchObject({ hits: 2, strength: 60 });
      expect(fs.readFileSync(file, 'utf8')).toBe(before);
      expect(messages.join('\n')).toMatch(/held by process \d+ \(sleep: consolidation\); hits not written back/);
    } finally {
      sleeps.mockRestore();
      logging.close();
      lock!.release();
    }
  });

  it('writes nothing when write-back is off (benches)', () => {
    const before = fs.readFileSync(file, 'utf8');
    expect(recall(index, { role: ROLE, query: '咖啡', clock, writeBack: false }).writeBack).toBe('disabled');
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });
});
