import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { fixedClock } from '../../platform/config/clock.js';
import { FULL_CHECK_INTERVAL_MS, type FullCheckPolicy } from './full-check.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { recall } from './recall.js';
import { reindexMemories } from './reindex.js';

/**
 * In-place edits (VS Code, vim with backupcopy=yes) leave the folder mtime alone, so the folder
 * diff cannot see them; without the daemon's watcher only a stat of every file can. These
 * tests run recall the way the CLI and hooks do: no watcher.
 */
let home: TempHome;
let index: MemoryIndex;
let coffee: string;
const clock = fixedClock('2026-03-10T12:00:00+08:00');

beforeEach(() => {
  home = makeTempHome();
  index = openMemoryIndex(home.config().paths);
  coffee = writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡' });
  writeMemory(home.memoryHome, 'daily', { id: 'haircut', summary: '剪頭髮' });
});
afterEach(() => {
  index.close();
  home.cleanup();
});

function ids(query: string, fullCheck?: FullCheckPolicy): string[] {
  return recall(index, { role: ROLE, query, clock, writeBack: false, fullCheck }).memories.map((m) => m.id);
}

let edits = 0;
/** Save the same path in place, as such editors do; the mtime is set so clock granularity cannot hide the change. */
function editInPlace(from: string, to: string): void {
  const folder = path.dirname(coffee);
  const folderMtime = fs.statSync(folder).mtimeMs;
  fs.writeFileSync(coffee, fs.readFileSync(coffee, 'utf8').replace(from, to));
  edits += 1;
  const mtime = new Date(Date.UTC(2025, 0, 1, 0, 0, edits));
  fs.utimesSync(coffee, mtime, mtime);
  expect(fs.statSync(folder).mtimeMs).toBe(folderMtime); // the folder diff alone cannot see this edit
}

describe('in-place edits are found without the watcher', () => {
  it("by the next recall when the role is small (every file is stat'ed every time)", () => {
    expect(ids('咖啡')).toEqual(['coffee']);
    editInPlace('黑咖啡', '烏龍茶');
    expect(ids('烏龍茶')).toEqual(['coffee']);
    expect(ids('咖啡')).toEqual([]);
  });

  it('in a large role, by the first recall once the last full check is older than the interval', () => {
    let nowMs = 1_000_000_000_000;
    const large: FullCheckPolicy = { smallRoleFiles: 1, nowMs: () => nowMs };
    expect(ids('咖啡', large)).toEqual(['coffee']); // a new index: the first sync reads every file

    editInPlace('黑咖啡', '烏龍茶');
    nowMs += FULL_CHECK_INTERVAL_MS / 2;
    expect(ids('烏龍茶', large)).toEqual([]); // the check is not due yet: its cost stays bounded
    nowMs += FULL_CHECK_INTERVAL_MS / 2;
    expect(ids('烏龍茶', large)).toEqual(['coffee']);

    editInPlace('烏龍茶', '紅茶拿鐵'); // the check just ran, so the next one is an interval away
    nowMs += 1000;
    expect(ids('紅茶拿鐵', large)).toEqual([]);
    expect(ids('紅茶拿鐵', { ...large, intervalMs: 1000 })).toEqual(['coffee']);
  });

  it('in a large role, when the recorded check time is in the future (the clock was set back)', () => {
    let nowMs = 2_000_000_000_000;
    const large: FullCheckPolicy = { smallRoleFiles: 1, nowMs: () => nowMs };
    ids('咖啡', large);
    editInPlace('黑咖啡', '烏龍茶');
    nowMs -= 60 * 60_000;
    expect(ids('烏龍茶', large)).toEqual(['coffee']);
  });

  it('a reindex counts as a full check of the roles it rebuilt', () => {
    reindexMemories(index, [ROLE]);
    editInPlace('黑咖啡', '烏龍茶');
    expect(ids('烏龍茶', { smallRoleFiles: 1 })).toEqual([]);
    expect(ids('烏龍茶', { smallRoleFiles: 1, nowMs: () => Date.now() + FULL_CHECK_INTERVAL_MS })).toEqual(['coffee']);
  });

  it("sees a role grow past small by this process's writes and by another process's (its count is kept only until the index changes)", () => {
    const nowMs = 1_000_000_000_000;
    const threeIsLarge: FullCheckPolicy = { smallRoleFiles: 3, nowMs: () => nowMs };
    expect(ids('咖啡', threeIsLarge)).toEqual(['coffee']); // the first sync: a full check, stamped now
    editInPlace('黑咖啡', '烏龍茶');
    expect(ids('烏龍茶', threeIsLarge)).toEqual(['coffee']); // two files: small, every file stat'ed
    expect(ids('烏龍茶', threeIsLarge)).toEqual(['coffee']); // nothing changed: the count of two is kept

    // A third file, indexed by another connection (the daemon, a CLI recall): now the role is large.
    writeMemory(home.memoryHome, 'daily', { id: 'tea', summary: '下午茶' });
    const other = openMemoryIndex(home.config().paths);
    try {
      expect(recall(other, { role: ROLE, query: '下午茶', clock, writeBack: false, fullCheck: threeIsLarge }).memories).toHaveLength(1);
    } finally {
      other.close();
    }
    editInPlace('烏龍茶', '紅茶拿鐵');
    expect(ids('紅茶拿鐵', threeIsLarge)).toEqual([]); // large, and checked within the interval

    // Back to small by this connection's own sync (two files deleted): every file stat'ed again.
    fs.rmSync(path.join(path.dirname(coffee), '..', 'daily'), { recursive: true });
    expect(ids('剪頭髮', threeIsLarge)).toEqual([]);
    editInPlace('紅茶拿鐵', '抹茶');
    expect(ids('抹茶', threeIsLarge)).toEqual(['coffee']);
  });

  it('leaves the index untouched (no write) when a full check finds nothing changed', () => {
    ids('咖啡');
    const changes = () => index.db.prepare('SELECT total_changes()').pluck().get();
    const before = changes();
    ids('咖啡');
    expect(changes()).toBe(before);
  });
});
