import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { fixedClock } from '../../platform/config/clock.js';
import { syncPaths } from './index-sync.js';
import { searchTextHash } from './memory-rows.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { recall } from './recall.js';

/**
 * memory-rows.ts writeMemoryRow: a row rewritten with the same search text keeps its full-text
 * entry. FTS5's contentless delete leaves the table statistics counting the old entry, so a
 * delete and re-insert of the same text raised later bm25 scores, recall after recall.
 */
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
