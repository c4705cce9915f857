import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { fixedClock, formatLocalIso } from '../../platform/config/clock.js';
import { readLockInfo, tryAcquireLock } from '../../platform/fs/file-lock.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { memoryLockFile } from '../memory/memory-layout.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { prepareRecall } from './recall.js';

/**
 * A recall answers before it writes the hits back (issue 17): the answer already shows the
 * counts the write-back then puts in the file, and the role's memory lock is held in between,
 * so a consolidation cannot rewrite the file under it.
 */
let home: TempHome;
let index: MemoryIndex;
let file: string;
const now = new Date('2026-03-10T12:00:00+08:00');
const clock = fixedClock(now);
const counts = () => {
  const { hits, strength, last_replayed } = parseFrontmatter(fs.readFileSync(file, 'utf8')).data as Record<string, unknown>;
  return { hits, strength, last_replayed };
};

beforeEach(() => {
  home = makeTempHome();
  index = openMemoryIndex(home.config().paths);
  file = writeMemory(home.memoryHome, 'interest', {
    id: 'coffee',
    summary: '喜歡喝黑咖啡',
    hits: 2,
    strength: 96,
    last_replayed: '2026-01-01T09:00:00+08:00',
  });
});
afterEach(() => {
  index.close();
  home.cleanup();
});

describe('prepareRecall', () => {
  it('answers with the counts it will write, writes them only on writeBack, and holds the lock until then', () => {
    const prepared = prepareRecall(index, { role: ROLE, query: '咖啡', clock });
    const expected = { hits: 3, strength: 100, last_replayed: formatLocalIso(now) };
    expect(prepared.result.writeBack).toBe('written');
    expect(prepared.result.memories.map(({ hits, strength, last_replayed }) => ({ hits, strength, last_replayed }))).toEqual([expected]);
    expect(counts()).toEqual({ hits: 2, strength: 96, last_replayed: '2026-01-01T09:00:00+08:00' });
    expect(readLockInfo(memoryLockFile(home.memoryHome, ROLE))?.purpose).toBe('recall write-back');
    expect(prepared.writeBack()).toEqual([]);
    expect(counts()).toEqual(expected);
    expect(fs.existsSync(memoryLockFile(home.memoryHome, ROLE))).toBe(false);
    expect(prepared.writeBack()).toEqual([]); // once
    expect(counts()).toEqual(expected);
  });

  it('release() gives the lock back and writes nothing', () => {
    const prepared = prepareRecall(index, { role: ROLE, query: '咖啡', clock });
    prepared.release();
    expect(fs.existsSync(memoryLockFile(home.memoryHome, ROLE))).toBe(false);
    expect(prepared.writeBack()).toEqual([]);
    expect(counts().hits).toBe(2);
  });

  it('says up front that the recall is not counted when a consolidation holds the lock', () => {
    const held = tryAcquireLock(memoryLockFile(home.memoryHome, ROLE), { purpose: 'sleep' })!;
    try {
      const prepared = prepareRecall(index, { role: ROLE, query: '咖啡', clock });
      expect(prepared.result.writeBack).toBe('skipped-locked');
      expect(prepared.result.memories[0]!.hits).toBe(2);
      prepared.writeBack();
      expect(counts().hits).toBe(2);
    } finally {
      held.release();
    }
  });
});
