import fs from 'node:fs';
import path from 'node:path';
import { ALL_CATEGORIES, type MemoryCategory, type MemoryLoadProblem, type StoredMemory } from '../../../../common/memory.js';
import { isTempFileName } from '../../platform/fs/atomic-write.js';
import { readMemoryFile, roleMemoryDir } from './memory-layout.js';

/**
 * Parsed memories kept between hook events in the daemon (X-PERF).
 * Design notes: docs/design-notes.md, "main/core/store/memory/memory-cache.ts".
 */
export interface CachedMemories {
  memories: StoredMemory[];
  problems: MemoryLoadProblem[];
  /**
   * The consolidated memories alone (no inbox), frozen, and the very same list until a file
   * outside the inbox changes: every turn adds an inbox item, while what a SessionStart sorts
   * and formats at length is this part (context/list-memo.ts keeps that work with it).
   */
  longTerm: readonly StoredMemory[];
  /** The inbox alone, frozen: what the inbox block and the sleepy reminder count. */
  inbox: readonly StoredMemory[];
}

export interface MemoryCache {
  /** A role's memories, brought up to date; a role not read yet is read here, every file of it. */
  load(roleId: string): CachedMemories;
  /**
   * `load`, once every folder of the role has been read (by `load` or `warm`). Before that,
   * undefined, and a warm of the role is started: a hook then answers from the prepared load on
   * disk, as without the daemon, rather than wait while thousands of files are parsed (the first
   * load of 10,000 memories took 0.6 s, the prepared load 0.02 s). `onWarmed` says when it is ready.
   */
  loadIfWarm(roleId: string): CachedMemories | undefined;
  /**
   * Parse a role's files ahead of its first event, yielding to the event loop between slices.
   * One warm per role at a time: asked again meanwhile, the same promise.
   */
  warm(roleId: string): Promise<void>;
  /** The roles whose every folder has been read (the ones worth keeping ready). */
  roles(): string[];
  /** Warms under way: work the host has set itself (the daemon's status counts it). */
  warming(): number;
  /**
   * The stat a cached file was read with (size, mtime, inode), or undefined when it is not
   * cached: what the daemon's prepared load on disk is stamped with must be what it parsed.
   */
  fileStamp(roleId: string, file: string): { size: number; mtimeMs: number; ino: number } | undefined;
  close(): void;
}

interface CachedFile {
  mtimeMs: number;
  size: number;
  ino: number;
  result: StoredMemory | MemoryLoadProblem;
}

interface CachedFolder {
  dirMtimeMs: number;
  files: Map<string, CachedFile>;
  /** File names the watcher reported since the last load. */
  dirty: Set<string>;
  /** The watcher lost track (no file name, an error) or could not start: check every file. */
  checkAll: boolean;
  watcher: fs.FSWatcher | undefined;
  /** The folder's results in name order, kept until a file in it changes. */
  ordered?: CachedFile['result'][] | undefined;
}

interface CachedRole {
  folders: Map<MemoryCategory, CachedFolder>;
  snapshot: CachedMemories | undefined;
  /** A folder other than the inbox changed since `snapshot.longTerm` was built. */
  longTermStale: boolean;
  /** Every folder has been read once: from then on a load only brings the role up to date. */
  read: boolean;
}

const isMemoryName = (name: string) => name.endsWith('.md') && !name.startsWith('.') && !isTempFileName(name);
/**
 * Files parsed between two turns of the event loop while warming: about 2 ms of them. A hook that
 * comes meanwhile waits for the slice in hand twice (its connection is accepted on one turn, its
 * request read on the next); with slices of 200 such a hook took 11–21 ms longer (issue 17,
 * session 36: `npm run bench -- daemon-start`, side by side).
 */
const WARM_SLICE = 50;

function isProblem(result: CachedFile['result']): result is MemoryLoadProblem {
  return !('id' in result);
}

export interface MemoryCacheOptions {
  /** Watch the folders (default); off, every load compares every file of a changed folder. */
  watch?: boolean;
  /**
   * A watched folder of this role reported a change (a sleep, an edit, a capture): the daemon
   * prepares the role's next load in its idle time. Called from the watcher, often in bursts.
   */
  onChange?: (roleId: string) => void;
  /** A warm finished: every folder of this role is read, and `loadIfWarm` answers for it. */
  onWarmed?: (roleId: string) => void;
}

export function createMemoryCache(memoryHome: string, options: MemoryCacheOptions = {}): MemoryCache {
  const watch = options.watch ?? true;
  const roles = new Map<string, CachedRole>();
  const inFlight = new Map<string, Promise<void>>();
  /** Moves on when the cache is closed: a warm begun before stops at its next slice. */
  let generation = 0;

  const readFile = (roleId: string, category: MemoryCategory, file: string, stat: fs.Stats): CachedFile => {
    let result: CachedFile['result'];
    try {
      result = Object.freeze(readMemoryFile({ category, path: file }, roleId, stat));
    } catch (error) {
      result = { path: file, message: (error as Error).message };
    }
    return { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino, result };
  };

  /** Re-stat one file; true when the cache changed. */
  const refreshFile = (roleId: string, category: MemoryCategory, dir: string, folder: CachedFolder, name: string): boolean => {
    const file = path.join(dir, name);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return folder.files.delete(name);
    }
    if (!stat.isFile()) return folder.files.delete(name);
    const known = folder.files.get(name);
    if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size && known.ino === stat.ino) return false;
    folder.files.set(name, readFile(roleId, category, file, stat));
    return true;
  };

  /**
   * List the folder again and re-read what changed; true when anything did. With `onlyThese`,
   * a file already known is looked at only when its name is in it (the watcher reported it).
   */
  const relist = (
    roleId: string,
    category: MemoryCategory,
    dir: string,
    folder: CachedFolder,
    onlyThese?: ReadonlySet<string>,
  ): boolean => {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter(isMemoryName);
    } catch {
      names = [];
    }
    let changed = false;
    const present = new Set(names);
    for (const name of [...folder.files.keys()]) if (!present.has(name) && folder.files.delete(name)) changed = true;
    for (const name of names) {
      if (onlyThese && folder.files.has(name) && !onlyThese.has(name)) continue;
      if (refreshFile(roleId, category, dir, folder, name)) changed = true;
    }
    return changed;
  };

  const startWatching = (roleId: string, dir: string, folder: CachedFolder): void => {
    if (!watch) {
      folder.checkAll = true;
      return;
    }
    try {
      const watcher = fs.watch(dir, { persistent: false }, (_type, name) => {
        if (name) folder.dirty.add(name.toString());
        else folder.checkAll = true;
        options.onChange?.(roleId);
      });
      watcher.on('error', () => {
        folder.checkAll = true;
        watcher.close();
        if (folder.watcher === watcher) folder.watcher = undefined;
      });
      folder.watcher = watcher;
    } catch {
      // inotify limits reached, or a file system without notifications: stat every file instead.
      folder.checkAll = true;
    }
  };

  const dropFolder = (cached: CachedRole, category: MemoryCategory): boolean => {
    const folder = cached.folders.get(category);
    if (!folder) return false;
    folder.watcher?.close();
    cached.folders.delete(category);
    return true;
  };

  /** A folder's stat; undefined when it is not there (a category the role has none of is common: no error made for it). */
  const folderStat = (dir: string): fs.Stats | undefined => {
    try {
      return fs.statSync(dir, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
  };

  /** Bring one folder up to date; true when anything in it changed. */
  const syncFolder = (roleId: string, cached: CachedRole, category: MemoryCategory, dir: string): boolean => {
    const dirStat = folderStat(dir);
    if (!dirStat?.isDirectory()) return dropFolder(cached, category);
    let folder = cached.folders.get(category);
    if (!folder) {
      folder = { dirMtimeMs: dirStat.mtimeMs, files: new Map(), dirty: new Set(), checkAll: false, watcher: undefined };
      cached.folders.set(category, folder);
      // Watch before listing, so that a change made while listing is not missed.
      startWatching(roleId, dir, folder);
      relist(roleId, category, dir, folder);
      return true;
    }
    const dirty = [...folder.dirty];
    folder.dirty.clear();
    // The folder's mtime is taken before it is listed: a change during the listing moves it again.
    if (folder.dirMtimeMs !== dirStat.mtimeMs || folder.checkAll) {
      folder.dirMtimeMs = dirStat.mtimeMs;
      // The inbox gains a file per turn and its files are written once: there the listing says
      // what is new and the watcher reports the rest. Elsewhere files are rewritten in place by
      // rename (a sleep, a recall's hit count), and the watcher's report of that may still be on
      // its way: every file of a changed folder is compared, as is every folder left unwatched.
      const statEveryFile = folder.checkAll || folder.watcher === undefined || category !== 'inbox';
      folder.checkAll = folder.watcher === undefined;
      return relist(roleId, category, dir, folder, statEveryFile ? undefined : new Set(dirty));
    }
    let changed = false;
    for (const name of dirty) if (isMemoryName(name) && refreshFile(roleId, category, dir, folder, name)) changed = true;
    return changed;
  };

  const snapshotOf = (cached: CachedRole): CachedMemories => {
    const memories: StoredMemory[] = [];
    const problems: MemoryLoadProblem[] = [];
    let inbox: StoredMemory[] = [];
    for (const category of ALL_CATEGORIES) {
      const folder = cached.folders.get(category);
      if (!folder) continue;
      // Name order within a category, as loadRoleMemories gives (stable output for the same files);
      // sorted again only for a folder that changed (the inbox, usually).
      folder.ordered ??= [...folder.files.keys()].sort().map((name) => folder.files.get(name)!.result);
      const start = memories.length;
      for (const result of folder.ordered) {
        if (isProblem(result)) problems.push(result);
        else memories.push(result);
      }
      if (category === 'inbox') inbox = memories.slice(start);
    }
    const previous = cached.snapshot?.longTerm;
    const longTerm = previous && !cached.longTermStale ? previous : Object.freeze(memories.slice(inbox.length)); // the inbox comes first in ALL_CATEGORIES
    cached.longTermStale = false;
    return { memories: Object.freeze(memories) as StoredMemory[], problems, longTerm, inbox: Object.freeze(inbox) };
  };

  const roleEntry = (roleId: string): CachedRole => {
    let cached = roles.get(roleId);
    if (!cached) {
      cached = { folders: new Map(), snapshot: undefined, longTermStale: true, read: false };
      roles.set(roleId, cached);
    }
    return cached;
  };

  /**
   * Bring a role up to date. `onlyRead`: undefined instead when a folder of it is there unread
   * (one that appeared since, a role restored from the trash): that is a warm's to read, in slices.
   */
  const sync = (roleId: string, onlyRead: boolean): CachedMemories | undefined => {
    const dir = roleMemoryDir(memoryHome, roleId);
    const cached = roleEntry(roleId);
    let changed = cached.snapshot === undefined;
    let unread = false;
    for (const category of ALL_CATEGORIES) {
      const folderDir = path.join(dir, category);
      // A folder the cache holds nothing of: a whole folder's parse if it is there, nothing to do if not.
      if (onlyRead && !cached.folders.has(category)) {
        if (folderStat(folderDir)?.isDirectory()) unread = true;
        continue;
      }
      if (!syncFolder(roleId, cached, category, folderDir)) continue;
      changed = true;
      const folder = cached.folders.get(category);
      if (folder) folder.ordered = undefined;
      if (category !== 'inbox') cached.longTermStale = true;
    }
    if (unread) {
      cached.read = false;
      if (changed) cached.snapshot = undefined;
      return undefined;
    }
    if (changed || !cached.snapshot) cached.snapshot = snapshotOf(cached);
    cached.read = true;
    // The same frozen lists until a file changes: what is computed from them can be kept with them.
    const { memories, problems, longTerm, inbox } = cached.snapshot;
    return { memories, problems: [...problems], longTerm, inbox };
  };

  const load = (roleId: string): CachedMemories => sync(roleId, false)!;

  const readInSlices = async (roleId: string): Promise<void> => {
    const started = generation;
    // Not one file on the caller's turn: a hook that finds the role unread answers first.
    await new Promise((resolve) => setImmediate(resolve));
    if (generation !== started) return;
    const dir = roleMemoryDir(memoryHome, roleId);
    const cached = roleEntry(roleId);
    for (const category of ALL_CATEGORIES) {
      const folderDir = path.join(dir, category);
      if (cached.folders.has(category)) continue;
      let dirStat: fs.Stats;
      let names: string[];
      try {
        dirStat = fs.statSync(folderDir);
        names = fs.readdirSync(folderDir).filter(isMemoryName);
      } catch {
        continue;
      }
      const folder: CachedFolder = { dirMtimeMs: dirStat.mtimeMs, files: new Map(), dirty: new Set(), checkAll: false, watcher: undefined };
      startWatching(roleId, folderDir, folder);
      for (let i = 0; i < names.length; i += WARM_SLICE) {
        for (const name of names.slice(i, i + WARM_SLICE)) refreshFile(roleId, category, folderDir, folder, name);
        await new Promise((resolve) => setImmediate(resolve));
        // The cache was closed meanwhile: nothing is kept, and no watcher left behind.
        if (generation !== started) {
          folder.watcher?.close();
          return;
        }
      }
      // A load may have filled this folder meanwhile; its entry wins (it is at least as fresh).
      if (cached.folders.has(category)) folder.watcher?.close();
      else {
        cached.folders.set(category, folder);
        cached.snapshot = undefined;
        cached.longTermStale = true;
      }
    }
  };

  const warm = (roleId: string): Promise<void> => {
    const running = inFlight.get(roleId);
    if (running) return running;
    const done = readInSlices(roleId).then(() => {
      if (inFlight.get(roleId) !== done) return; // closed meanwhile
      inFlight.delete(roleId);
      roleEntry(roleId).read = true;
      options.onWarmed?.(roleId);
    });
    // A failed warm leaves the role to a later warm or load (the caller is told by the promise).
    done.catch(() => inFlight.get(roleId) === done && inFlight.delete(roleId));
    inFlight.set(roleId, done);
    return done;
  };

  const loadIfWarm = (roleId: string): CachedMemories | undefined => {
    const loaded = roles.get(roleId)?.read ? sync(roleId, true) : undefined;
    if (loaded) return loaded;
    // A warm that fails (the folder unreadable) leaves the role unread: the next hook answers from
    // the files again, which report what is wrong with them, and starts another.
    warm(roleId).catch(() => undefined);
    return undefined;
  };

  const close = () => {
    generation += 1;
    for (const cached of roles.values()) for (const folder of cached.folders.values()) folder.watcher?.close();
    roles.clear();
    inFlight.clear();
  };

  const fileStamp = (roleId: string, file: string) => {
    const folder = roles.get(roleId)?.folders.get(path.basename(path.dirname(file)) as MemoryCategory);
    const known = folder?.files.get(path.basename(file));
    return known ? { size: known.size, mtimeMs: known.mtimeMs, ino: known.ino } : undefined;
  };

  return {
    load,
    loadIfWarm,
    warm,
    roles: () => [...roles].flatMap(([roleId, cached]) => (cached.read ? [roleId] : [])),
    warming: () => inFlight.size,
    fileStamp,
    close,
  };
}
