import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { copySeed000Fixture, SEED000_ROLE, writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { createMemoryCache, type MemoryCache } from './memory-cache.js';
import { loadRoleMemories } from './memory-layout.js';

let home: TempHome | undefined;
let cache: MemoryCache | undefined;
afterEach(() => {
  cache?.close();
  cache = undefined;
  home?.cleanup();
  home = undefined;
});

function setup(watch: boolean): { memoryHome: string; cache: MemoryCache } {
  home = makeTempHome();
  copySeed000Fixture(home.memoryHome);
  cache = createMemoryCache(home.memoryHome, { watch });
  return { memoryHome: home.memoryHome, cache };
}

/** What the files say right now, read the slow way. */
const fromFiles = (memoryHome: string) => {
  const { memories, problems } = loadRoleMemories(memoryHome, SEED000_ROLE);
  return { memories: memories.map((m) => ({ ...m })), problems };
};
const plain = (loaded: ReturnType<MemoryCache['load']>) => ({
  memories: loaded.memories.map((m) => ({ ...m })),
  problems: loaded.problems,
});

/** Every fs.watch the cache opens, and which of them it closed. */
function trackWatchers(): { opened: fs.FSWatcher[]; closed: Set<fs.FSWatcher>; restore: () => void } {
  const opened: fs.FSWatcher[] = [];
  const closed = new Set<fs.FSWatcher>();
  const realWatch = fs.watch.bind(fs);
  const spy = vi.spyOn(fs, 'watch').mockImplementation(((...args: Parameters<typeof fs.watch>) => {
    const watcher = realWatch(...args);
    const close = watcher.close.bind(watcher);
    watcher.close = () => {
      closed.add(watcher);
      close();
    };
    opened.push(watcher);
    return watcher;
  }) as typeof fs.watch);
  return { opened, closed, restore: () => spy.mockRestore() };
}

/** Waits for a watcher event; 30 s is a safety net for a loaded machine, not a budget. */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('memory cache', () => {
  it('gives what the files give, in the same order, and the very same frozen list while nothing changes', () => {
    const { memoryHome, cache } = setup(true);
    const first = cache.load(SEED000_ROLE);
    expect(plain(first)).toEqual(fromFiles(memoryHome));
    expect(first.memories.length).toBeGreaterThan(3);
    const second = cache.load(SEED000_ROLE);
    expect(second.memories).toBe(first.memories);
    expect(Object.isFrozen(second.memories)).toBe(true);
    expect(Object.isFrozen(second.memories[0])).toBe(true);
  });

  for (const watch of [true, false]) {
    describe(watch ? 'watching the folders' : 'without watching (stat every file)', () => {
      it('sees files added, rewritten atomically and removed', () => {
        const { memoryHome, cache } = setup(watch);
        const before = cache.load(SEED000_ROLE).memories;
        const added = writeMemoryFixture(memoryHome, SEED000_ROLE, 'inbox', '20261130-aaaaaa', {
          summary: '新加的待整理記憶',
          priority: 3,
        });
        expect(cache.load(SEED000_ROLE).memories.map((m) => m.path)).toContain(added);

        const victim = before.find((m) => m.category !== 'inbox')!;
        const text = fs.readFileSync(victim.path, 'utf8').replace(victim.summary, '改寫過的總結');
        writeFileAtomicSync(victim.path, text);
        expect(cache.load(SEED000_ROLE).memories.find((m) => m.path === victim.path)?.summary).toBe('改寫過的總結');

        fs.unlinkSync(added);
        const after = cache.load(SEED000_ROLE);
        expect(after.memories.map((m) => m.path)).not.toContain(added);
        expect(plain(after)).toEqual(fromFiles(memoryHome));
      });

      it('sees an edit in place, which leaves the folder mtime alone', async () => {
        const { memoryHome, cache } = setup(watch);
        const victim = cache.load(SEED000_ROLE).memories.find((m) => m.category !== 'inbox')!;
        const folderMtime = fs.statSync(path.dirname(victim.path)).mtimeMs;
        const text = fs.readFileSync(victim.path, 'utf8').replace(victim.summary, '就地修改的總結，長度也不同');
        fs.writeFileSync(victim.path, text); // same inode, same folder entry
        expect(fs.statSync(path.dirname(victim.path)).mtimeMs).toBe(folderMtime);
        // A watcher's event arrives on the event loop, not synchronously.
        await eventually(() => cache.load(SEED000_ROLE).memories.some((m) => m.summary === '就地修改的總結，長度也不同'));
        expect(plain(cache.load(SEED000_ROLE))).toEqual(fromFiles(memoryHome));
      });
    });
  }

  it('keeps the same long-term list while only the inbox changes, and a new one when a memory does', () => {
    const { memoryHome, cache } = setup(true);
    const first = cache.load(SEED000_ROLE);
    expect(first.longTerm.every((m) => m.category !== 'inbox')).toBe(true);
    expect(first.longTerm.length).toBe(first.memories.filter((m) => m.category !== 'inbox').length);
    writeMemoryFixture(memoryHome, SEED000_ROLE, 'inbox', '20261130-cccccc', { summary: '又一則待整理', priority: 3 });
    const second = cache.load(SEED000_ROLE);
    expect(second.memories).not.toBe(first.memories);
    expect(second.longTerm).toBe(first.longTerm);
    writeMemoryFixture(memoryHome, SEED000_ROLE, 'skill', '20261130-dddddd', { summary: '新技能', priority: 4 });
    const third = cache.load(SEED000_ROLE);
    expect(third.longTerm).not.toBe(first.longTerm);
    expect(third.longTerm.map((m) => m.summary)).toContain('新技能');
  });

  it('hands out the inbox part on its own, and together with the long-term part it is the whole list', () => {
    const { memoryHome, cache } = setup(true);
    writeMemoryFixture(memoryHome, SEED000_ROLE, 'inbox', '20261130-eeeeee', { summary: '收件匣的一則', priority: 3 });
    const loaded = cache.load(SEED000_ROLE);
    expect(loaded.inbox.length).toBeGreaterThan(0);
    expect(loaded.inbox.every((m) => m.category === 'inbox')).toBe(true);
    expect(Object.isFrozen(loaded.inbox)).toBe(true);
    expect([...loaded.inbox, ...loaded.longTerm]).toEqual(loaded.memories);
  });

  it('tells the daemon when a watched folder of a role changes, and which role', async () => {
    home = makeTempHome();
    copySeed000Fixture(home.memoryHome);
    const changed: string[] = [];
    cache = createMemoryCache(home.memoryHome, { onChange: (roleId) => changed.push(roleId) });
    cache.load(SEED000_ROLE);
    expect(cache.roles()).toEqual([SEED000_ROLE]);
    expect(changed).toEqual([]);
    writeMemoryFixture(home.memoryHome, SEED000_ROLE, 'daily', '20261130-ffffff', { summary: '睡眠寫入的一則', priority: 3 });
    await eventually(() => changed.length > 0);
    expect(new Set(changed)).toEqual(new Set([SEED000_ROLE]));
  });

  it('reports a corrupt file and loads it once it is fixed', () => {
    const { memoryHome, cache } = setup(false);
    const file = path.join(memoryHome, SEED000_ROLE, 'daily', 'broken.md');
    fs.writeFileSync(file, Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    expect(cache.load(SEED000_ROLE).problems.map((p) => p.path)).toContain(file);
    writeMemoryFixture(memoryHome, SEED000_ROLE, 'daily', 'broken', { summary: '修好了', priority: 2 });
    const loaded = cache.load(SEED000_ROLE);
    expect(loaded.problems.map((p) => p.path)).not.toContain(file);
    expect(loaded.memories.find((m) => m.path === file)?.summary).toBe('修好了');
  });

  it('follows a category folder that disappears and comes back', () => {
    const { memoryHome, cache } = setup(true);
    cache.load(SEED000_ROLE);
    const daily = path.join(memoryHome, SEED000_ROLE, 'daily');
    fs.rmSync(daily, { recursive: true });
    expect(cache.load(SEED000_ROLE).memories.some((m) => m.category === 'daily')).toBe(false);
    writeMemoryFixture(memoryHome, SEED000_ROLE, 'daily', '20261130-bbbbbb', { summary: '回來了', priority: 2 });
    expect(
      cache
        .load(SEED000_ROLE)
        .memories.filter((m) => m.category === 'daily')
        .map((m) => m.summary),
    ).toEqual(['回來了']);
  });

  it('warms a role ahead of time with the same result', async () => {
    const { memoryHome, cache } = setup(true);
    await cache.warm(SEED000_ROLE);
    expect(plain(cache.load(SEED000_ROLE))).toEqual(fromFiles(memoryHome));
  });
});

describe('memory cache: a role not read yet (loadIfWarm)', () => {
  it('answers nothing until the role is read, and starts one warm for it meanwhile', async () => {
    home = makeTempHome();
    copySeed000Fixture(home.memoryHome);
    const warmed: string[] = [];
    cache = createMemoryCache(home.memoryHome, { watch: false, onWarmed: (roleId) => warmed.push(roleId) });
    expect(cache.loadIfWarm(SEED000_ROLE)).toBeUndefined();
    expect(cache.warming()).toBe(1); // the daemon's status counts it as work in hand
    expect(cache.loadIfWarm(SEED000_ROLE)).toBeUndefined();
    const running = cache.warm(SEED000_ROLE);
    expect(cache.warm(SEED000_ROLE)).toBe(running); // one warm per role, however often it is asked
    expect(cache.roles()).toEqual([]);
    await running;
    expect(warmed).toEqual([SEED000_ROLE]);
    expect(cache.warming()).toBe(0);
    expect(cache.roles()).toEqual([SEED000_ROLE]);
    expect(plain(cache.loadIfWarm(SEED000_ROLE)!)).toEqual(fromFiles(home.memoryHome));
  });

  it('counts a role read by load as ready, with no warm started', () => {
    const { memoryHome, cache } = setup(false);
    cache.load(SEED000_ROLE);
    expect(plain(cache.loadIfWarm(SEED000_ROLE)!)).toEqual(fromFiles(memoryHome));
    expect(cache.warming()).toBe(0);
  });

  it("reads nothing on the caller's turn: a hook that finds the role unread answers first", () => {
    home = makeTempHome();
    copySeed000Fixture(home.memoryHome);
    const watchers = trackWatchers();
    try {
      cache = createMemoryCache(home.memoryHome);
      expect(cache.loadIfWarm(SEED000_ROLE)).toBeUndefined();
      expect(watchers.opened).toEqual([]); // not one folder listed or watched yet
    } finally {
      watchers.restore();
    }
  });

  it('closed while a warm runs: the warm stops, keeps nothing, tells nobody and leaves no watcher open', async () => {
    home = makeTempHome();
    copySeed000Fixture(home.memoryHome);
    const watchers = trackWatchers();
    try {
      const warmed: string[] = [];
      cache = createMemoryCache(home.memoryHome, { onWarmed: (roleId) => warmed.push(roleId) });
      const running = cache.warm(SEED000_ROLE);
      // Two turns of the loop: the warm has begun its first folder and waits for the next turn.
      for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(watchers.opened.length).toBeGreaterThan(0);
      cache.close();
      await running;
      expect(watchers.opened.filter((watcher) => !watchers.closed.has(watcher))).toEqual([]);
      expect(watchers.opened.length).toBeLessThan(6); // it stopped: the fixture's six folders were not all begun
      expect(warmed).toEqual([]);
      expect(cache.warming()).toBe(0);
      expect(cache.roles()).toEqual([]);
    } finally {
      watchers.restore();
    }
  });

  it('a load while a warm runs: the load reads at once, the warm keeps what the load read, one watcher per folder stays', async () => {
    home = makeTempHome();
    copySeed000Fixture(home.memoryHome);
    const watchers = trackWatchers();
    try {
      cache = createMemoryCache(home.memoryHome);
      const running = cache.warm(SEED000_ROLE);
      for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(plain(cache.load(SEED000_ROLE))).toEqual(fromFiles(home.memoryHome));
      await running;
      expect(plain(cache.loadIfWarm(SEED000_ROLE)!)).toEqual(fromFiles(home.memoryHome));
      expect(watchers.opened.filter((watcher) => !watchers.closed.has(watcher))).toHaveLength(6);
    } finally {
      watchers.restore();
    }
  });

  it("a folder that comes back to a role already read (restored) is read by a warm, not on the caller's turn", async () => {
    const { memoryHome, cache } = setup(false);
    const daily = path.join(memoryHome, SEED000_ROLE, 'daily');
    const saved = path.join(home!.root, 'daily-saved');
    fs.renameSync(daily, saved);
    cache.load(SEED000_ROLE);
    fs.renameSync(saved, daily);
    expect(cache.loadIfWarm(SEED000_ROLE)).toBeUndefined();
    expect(cache.roles()).toEqual([]);
    await cache.warm(SEED000_ROLE);
    const loaded = cache.loadIfWarm(SEED000_ROLE)!;
    expect(plain(loaded)).toEqual(fromFiles(memoryHome));
    expect(loaded.memories.some((memory) => memory.category === 'daily')).toBe(true);
  });
});
