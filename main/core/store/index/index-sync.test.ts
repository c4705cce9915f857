import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, memoryPath, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { fixedClock } from '../../platform/config/clock.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { brokenFilesOf } from './folder-rows.js';
import { syncPaths, syncRole } from './index-sync.js';
import { searchTextHash } from './memory-rows.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { recall } from './recall.js';
import { reindexMemories } from './reindex.js';

let home: TempHome;
let index: MemoryIndex;
const clock = fixedClock('2026-03-10T12:00:00+08:00');

beforeEach(() => {
  home = makeTempHome();
  index = openMemoryIndex(home.config().paths);
});
afterEach(() => {
  index.close();
  home.cleanup();
});

function ids(query: string, role = ROLE): string[] {
  return recall(index, { role, query, clock, writeBack: false }).memories.map((m) => m.id);
}

/** A memory file cut short in the middle of a character (a crash while copying, a bad sync). */
function writeBroken(): string {
  const file = memoryPath(home.memoryHome, 'daily', 'broken');
  fs.writeFileSync(file, Buffer.from('---\nid: broken\nsummary: 咖啡機壞了\n---\n\n咖啡機').subarray(0, -1));
  return file;
}

describe('one bad memory file never stops the others', () => {
  beforeEach(() => {
    for (let i = 0; i < 5; i += 1) writeMemory(home.memoryHome, 'daily', { id: `ok${i}`, summary: `第${i}杯咖啡` });
  });

  it('is reported while every other file is indexed and recallable', () => {
    const broken = writeBroken();
    const result = syncRole(index, ROLE);
    expect(result.indexed).toBe(5);
    expect(result.problems).toEqual([{ path: broken, message: expect.stringMatching(/not UTF-8/) }]);
    expect(ids('咖啡').sort()).toEqual(['ok0', 'ok1', 'ok2', 'ok3', 'ok4']);
  });

  it('is remembered, not parsed again while unchanged, and indexed once fixed', () => {
    const broken = writeBroken();
    syncRole(index, ROLE);
    writeMemory(home.memoryHome, 'daily', { id: 'ok5', summary: '第5杯咖啡' }); // the folder changes again
    expect(syncRole(index, ROLE).problems).toEqual([]);
    expect(brokenFilesOf(index.db, ROLE).map((p) => p.path)).toEqual([`${ROLE}/daily/broken.md`]);

    writeFileAtomicSync(broken, '---\nid: broken\nsummary: 咖啡機修好了\n---\n', { durable: false });
    expect(syncRole(index, ROLE).indexed).toBe(1);
    expect(brokenFilesOf(index.db, ROLE)).toEqual([]);
    expect(ids('咖啡機')).toEqual(['broken']);
  });

  it('is reported by reindex, which still indexes the rest', () => {
    writeBroken();
    const report = reindexMemories(index, 'all');
    expect(report).toMatchObject({ roles: [ROLE], indexed: 5 });
    expect(report.problems).toHaveLength(1);
  });

  it('also when it is binary or empty', () => {
    fs.writeFileSync(memoryPath(home.memoryHome, 'daily', 'binary'), Buffer.from('---\nid: x\n---\n\u0000\u0000'));
    fs.writeFileSync(memoryPath(home.memoryHome, 'daily', 'empty'), '');
    const messages = syncRole(index, ROLE)
      .problems.map((p) => p.message)
      .sort();
    expect(messages).toEqual([expect.stringMatching(/NUL bytes/), expect.stringMatching(/empty/)]);
  });
});

describe('reindex (PM-6)', () => {
  it('reports progress up to the total, and counts', () => {
    for (let i = 0; i < 30; i += 1) writeMemory(home.memoryHome, i % 2 ? 'inbox' : 'skill', { id: `m${i}`, summary: `筆記 ${i}` });
    const calls: [number, number][] = [];
    const report = reindexMemories(index, [ROLE], (done, total) => calls.push([done, total]));
    expect(report.indexed).toBe(30);
    expect(calls[0]).toEqual([0, 30]);
    expect(calls[calls.length - 1]).toEqual([30, 30]);
  });

  it('of every role drops rows of a role whose folder is gone; of one role leaves the others', () => {
    writeMemory(home.memoryHome, 'daily', { id: 'mine', summary: '喝咖啡' });
    writeMemory(home.memoryHome, 'daily', { id: 'theirs', summary: '喝咖啡' }, 'HELPER01');
    expect(reindexMemories(index, 'all').roles).toEqual([ROLE, 'HELPER01']);
    reindexMemories(index, [ROLE]);
    expect(ids('咖啡', 'HELPER01')).toEqual(['theirs']);

    fs.rmSync(path.join(home.memoryHome, 'HELPER01'), { recursive: true });
    reindexMemories(index, 'all');
    expect(index.db.prepare('SELECT count(*) FROM memories WHERE role = ?').pluck().get('HELPER01')).toBe(0);
  });

  it('rebuilds rows that went wrong in the index, not in the files', () => {
    writeMemory(home.memoryHome, 'daily', { id: 'mine', summary: '喝咖啡' });
    syncRole(index, ROLE);
    index.db.prepare("UPDATE memories SET summary = 'wrong'").run();
    reindexMemories(index, [ROLE]);
    expect(recall(index, { role: ROLE, query: '咖啡', clock, writeBack: false }).memories[0]?.summary).toBe('喝咖啡');
  });
});

/**
 * memory-rows.ts writeMemoryRow: a row rewritten with the same search text keeps its full-text
 * entry. FTS5's contentless delete leaves the table statistics counting the old entry, so a
 * delete and re-insert of the same text raised later bm25 scores, recall after recall.
 */
function found(query: string): Array<{ id: string; score: number }> {
  return recall(index, { role: ROLE, query, clock, writeBack: false }).memories.map(({ id, score }) => ({ id, score }));
}

/** The file rewritten with `change` applied, then synced as a write-back syncs it. */
function rewrite(file: string, change: (text: string) => string): void {
  fs.writeFileSync(file, change(fs.readFileSync(file, 'utf8')));
  syncPaths(index, [file], { recordFolderMtimes: false });
}

describe('a rewrite that changes only counts', () => {
  it('leaves every score as it was, however often it happens', () => {
    const coffee = writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡', hits: 0 });
    writeMemory(home.memoryHome, 'daily', { id: 'cafe', summary: '下午在咖啡店寫程式', body: '咖啡很香' });
    const before = found('咖啡');
    expect(before.map((m) => m.id).sort()).toEqual(['cafe', 'coffee']);
    for (let hits = 1; hits <= 3; hits++) rewrite(coffee, (text) => text.replace(/hits: \d+/, `hits: ${hits}`));
    expect(fs.readFileSync(coffee, 'utf8')).toContain('hits: 3');
    expect(found('咖啡')).toEqual(before);
  });
});

describe('a rewrite that changes the text', () => {
  it('is searched by its new words and no longer by its old ones', () => {
    const coffee = writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡' });
    expect(found('咖啡').map((m) => m.id)).toEqual(['coffee']);
    rewrite(coffee, (text) => text.replace('黑咖啡', '烏龍茶'));
    expect(found('咖啡')).toEqual([]);
    expect(found('烏龍茶').map((m) => m.id)).toEqual(['coffee']);
  });

  it('counts a word moved from one field to another as a change', () => {
    const text = { summary: 'ab', tags: 'c', cues: '', body: '' };
    expect(searchTextHash({ ...text, summary: 'a', tags: 'bc' })).not.toBe(searchTextHash(text));
    expect(searchTextHash({ ...text, tags: '', body: 'c' })).not.toBe(searchTextHash(text));
    expect(searchTextHash({ ...text })).toBe(searchTextHash(text));
  });
});
