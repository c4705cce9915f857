import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { fixedClock } from '../../platform/config/clock.js';
import { storedFolderMtime } from './folder-rows.js';
import type { FullCheckPolicy } from './full-check.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { recall } from './recall.js';

/**
 * The window between recall's write-back (files renamed into their folders) and the index
 * update that marks those folders fresh: another process (a hook, seed 000's scripts) may add
 * a memory to the same folder right then. The write-back is wrapped so the test can act inside
 * that window deterministically, without sleeps.
 */
const afterWriteBack = vi.hoisted(() => ({ run: undefined as (() => void) | undefined }));
vi.mock('./recall-write-back.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./recall-write-back.js')>();
  return {
    ...actual,
    writeBackRecall: (...args: Parameters<typeof actual.writeBackRecall>) => {
      const outcome = actual.writeBackRecall(...args);
      const run = afterWriteBack.run;
      afterWriteBack.run = undefined;
      run?.();
      return outcome;
    },
  };
});

let home: TempHome;
let index: MemoryIndex;
const clock = fixedClock('2026-03-10T12:00:00+08:00');
// As in a large role: small roles stat every file on every recall (full-check.ts), which would
// find the added file anyway and hide what these tests are about.
const fullCheck: FullCheckPolicy = { smallRoleFiles: 1 };
const recallWritingBack = () => recall(index, { role: ROLE, query: '部署', clock, fullCheck });
const ids = (query: string) => recall(index, { role: ROLE, query, clock, writeBack: false, fullCheck }).memories.map((m) => m.id);

beforeEach(() => {
  home = makeTempHome();
  index = openMemoryIndex(home.config().paths);
  writeMemory(home.memoryHome, 'important', { id: 'rule', summary: '部署前先跑測試', memory_type: 'rule' });
  writeMemory(home.memoryHome, 'important', { id: 'old', summary: '舊的規則' });
});
afterEach(() => {
  afterWriteBack.run = undefined;
  index.close();
  home.cleanup();
});

describe('recall write-back and files added by another process meanwhile', () => {
  it('indexes a memory added to the folder between the write-back and the index update', () => {
    afterWriteBack.run = () => writeMemory(home.memoryHome, 'important', { id: 'concurrent', summary: '週五要交報告 zebrafish' });
    expect(recallWritingBack().memories.map((m) => m.id)).toEqual(['rule']);
    expect(fs.existsSync(path.join(home.memoryHome, ROLE, 'important', 'concurrent.md'))).toBe(true);
    expect(ids('zebrafish')).toEqual(['concurrent']);
  });

  it('drops the row of a memory removed from the folder in that window', () => {
    afterWriteBack.run = () => fs.rmSync(path.join(home.memoryHome, ROLE, 'important', 'old.md'));
    recallWritingBack();
    // Straight from the rows: a recall would also drop it, through the stat of its hits.
    expect(index.db.prepare("SELECT count(*) FROM memories WHERE id = 'old'").pluck().get()).toBe(0);
    expect(ids('規則')).toEqual([]);
  });

  it('indexes a memory renamed in that window (same number of files, other names)', () => {
    const folder = path.join(home.memoryHome, ROLE, 'important');
    afterWriteBack.run = () => fs.renameSync(path.join(folder, 'old.md'), path.join(folder, 'renamed.md'));
    recallWritingBack();
    expect(index.db.prepare('SELECT path FROM memories ORDER BY path').pluck().all()).toEqual([
      `${ROLE}/important/renamed.md`,
      `${ROLE}/important/rule.md`,
    ]);
  });

  it('still marks the folder fresh when nothing else changed it', () => {
    recallWritingBack();
    const folder = path.join(home.memoryHome, ROLE, 'important');
    expect(storedFolderMtime(index.db, ROLE, 'important')).toBe(fs.statSync(folder).mtimeMs);
  });
});
