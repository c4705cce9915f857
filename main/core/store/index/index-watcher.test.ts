import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, memoryPath, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { fixedClock } from '../../platform/config/clock.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { syncRole } from './index-sync.js';
import { watchMemoryIndex, type IndexWatcher } from './index-watcher.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { recall } from './recall.js';

let home: TempHome;
let index: MemoryIndex;
let watcher: IndexWatcher;
let synced: string[][];
let waiters: { test: (paths: string[]) => boolean; resolve: () => void }[];
const clock = fixedClock('2026-03-10T12:00:00+08:00');

beforeEach(async () => {
  home = makeTempHome();
  writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡' });
  index = openMemoryIndex(home.config().paths);
  syncRole(index, ROLE);
  synced = [];
  waiters = [];
  watcher = watchMemoryIndex(index, {
    debounceMs: 50,
    onSynced: (paths) => {
      synced.push(paths);
      waiters = waiters.filter((w) => (w.test(paths) ? (w.resolve(), false) : true));
    },
  });
  await watcher.ready;
});
afterEach(async () => {
  await watcher.close();
  index.close();
  home.cleanup();
});

/** Resolves when the watcher has indexed a batch containing `file` (no fixed sleeps). */
function indexed(file: string): Promise<void> {
  return new Promise((resolve) => waiters.push({ test: (paths) => paths.includes(file), resolve }));
}

function ids(query: string): string[] {
  return recall(index, { role: ROLE, query, clock, writeBack: false }).memories.map((m) => m.id);
}

function recordedFolderMtime(): number {
  return index.db.prepare("SELECT dir_mtime_ms FROM folders WHERE role = ? AND category = 'interest'").pluck().get(ROLE) as number;
}

describe('index watcher', () => {
  it('sees an in-place edit, which a folder diff cannot', async () => {
    const file = memoryPath(home.memoryHome, 'interest', 'coffee');
    const done = indexed(file);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('黑咖啡', '烏龍茶'));
    await done;
    expect(ids('烏龍茶')).toEqual(['coffee']);
    expect(ids('咖啡')).toEqual([]);
  });

  it('sees a file added and removed, and marks the folder fresh', async () => {
    const file = memoryPath(home.memoryHome, 'interest', 'tea');
    const added = indexed(file);
    writeFileAtomicSync(file, '---\nid: tea\nsummary: 偶爾喝烏龍茶\n---\n', { durable: false });
    await added;
    expect(recordedFolderMtime()).toBe(fs.statSync(path.dirname(file)).mtimeMs);
    expect(ids('烏龍茶')).toEqual(['tea']);

    const removed = indexed(file);
    fs.rmSync(file);
    await removed;
    expect(index.db.prepare('SELECT count(*) FROM memories WHERE id = ?').pluck().get('tea')).toBe(0);
  });

  it('ignores its own index, temp files and files outside the category folders', async () => {
    const file = memoryPath(home.memoryHome, 'interest', 'marker');
    const done = indexed(file);
    fs.writeFileSync(path.join(home.memoryHome, ROLE, 'interest', '.marker.md.123-abcd.tmp'), 'x');
    fs.writeFileSync(path.join(home.memoryHome, ROLE, 'BONDS.md'), '- 相互：一起喝咖啡');
    fs.mkdirSync(path.join(home.memoryHome, ROLE, 'archive'), { recursive: true });
    fs.writeFileSync(path.join(home.memoryHome, ROLE, 'archive', 'old.md'), '---\nid: old\n---\n');
    fs.writeFileSync(file, '---\nid: marker\nsummary: 標記\n---\n');
    await done;
    expect(synced.flat()).toEqual([file]);
  });
});
