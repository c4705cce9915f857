import fs from 'node:fs';
import path from 'node:path';
import { ALL_CATEGORIES, type StoredMemory } from '../../../../common/memory.js';
import { longTermOptions } from '../../engine/context/assemble-session-context.js';
import { loadSpecialMemories } from '../../engine/context/load-special-memories.js';
import { prepareLongTermWindow, type PreparedLongTermMemory } from '../../engine/context/memory-block.js';
import {
  INBOX_CATEGORIES,
  LONG_TERM_CATEGORIES,
  writePreparedLoad,
  type PreparedFiles,
  type WrittenLongTerm,
} from '../../engine/context/prepared-load-file.js';
import { collectStamps, headOf, RACY_MS, sameFolderStamps, type FolderStamps } from '../../engine/context/prepared-load-stamps.js';
import { writeParsedMemories } from '../../engine/context/parsed-memories-file.js';
import { parsedMemoriesFiles, preparedLoadFiles, type ParsedMemoriesFiles } from '../../platform/config/prepared-paths.js';
import { fileStamp } from '../../platform/fs/file-stamp.js';
import { FULL_CHECK_INTERVAL_MS } from '../../store/memory/full-check-policy.js';
import type { MemoryCache } from '../../store/memory/memory-cache.js';
import { roleMemoryDir } from '../../store/memory/memory-layout.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import type { HookContext } from './hook-handler.js';

/**
 * What this process last wrote for a role, by its load file. The warmer persists every role it
 * holds after each burst of events, and most turns change no memory file, or the inbox alone:
 * - nothing changed (the cache's same list, the same window, every folder's own stamp) and the
 *   last check is recent: nothing is written, and the 10,000 files are not stat'ed again;
 * - no long-term file changed: the load names the same stamps and items files again instead of
 *   writing them anew (about 1.4 MB at 10,000 memories), and only the inbox's parsed memories
 *   are written (parsed-memories-file.ts).
 * Files changed on disk since this process wrote them (a hook's fallback wrote its own, a role
 * delete removed them) are written anew.
 */
interface LastPersist {
  /**
   * The cache's list of the role's memories (its identity changes with any file), and the prepared
   * long-term memory (memory-block.ts's memo gives the same object while the options and the window
   * hold): compared by identity only, so held weakly — a role archived since keeps no memory alive.
   */
  memories: WeakRef<readonly StoredMemory[]>;
  prepared: WeakRef<PreparedLongTermMemory>;
  fitLimits: string;
  /** Every folder's own stamp: a name that came and went (an editor's swap file) moves it, not the cache's list. */
  heads: string;
  longTermFolders: FolderStamps[];
  written: WrittenLongTerm;
  checkedAt: number;
  onDisk: OnDisk;
}

/**
 * The stamps of the files this process wrote, as it left them: the load's and the parsed
 * memories', and the stamps and items files'. Undefined when one of them is not there.
 */
interface OnDisk {
  load: string | undefined;
  longTerm: string | undefined;
}

const lastPersist = new Map<string, LastPersist>();

/**
 * Refreshed at least this often while events come: a hook that finds no daemon trusts the load's
 * check for FULL_CHECK_INTERVAL_MS (full-check-policy.ts) and stats every file after it.
 */
const RECHECK_MS = FULL_CHECK_INTERVAL_MS / 2;

function stampsOf(files: readonly string[]): string | undefined {
  const stamps = files.map(fileStamp);
  return stamps.includes(undefined) ? undefined : stamps.join('|');
}

const loadOnDisk = (files: PreparedFiles, parsed: ParsedMemoriesFiles) => stampsOf([files.load, ...ALL_CATEGORIES.map(parsed.folder)]);
const longTermOnDisk = (files: PreparedFiles) => stampsOf([files.stamps, files.items]);

const headsOf = (folders: readonly FolderStamps[]) => JSON.stringify(folders.map(headOf));

/**
 * The daemon's share of issue 17: the load it keeps warm is written to disk too, so a hook that
 * later finds no daemon starts from it instead of from 10,000 files.
 * Design notes: docs/design-notes.md, "main/core/hosts/hook-handlers/persist-prepared-load.ts".
 */
export function persistPreparedLoad(ctx: HookContext & { memories: MemoryCache }, roleId: string): 'written' | 'later' {
  const { config, memories } = ctx;
  const roleDir = roleMemoryDir(config.paths.memoryHome, roleId);
  const started = Date.now();
  // The folders' stamps before the cache lists them: a change after this moves them.
  const stamps = collectStamps(roleDir, [...INBOX_CATEGORIES, ...LONG_TERM_CATEGORIES], started);
  const cached = memories.load(roleId);
  const role = readRoleDefinition(config.paths.roleHome, roleId);
  const now = config.clock.now();
  const options = longTermOptions({ config, role }, now);
  const window = prepareLongTermWindow(cached.longTerm, options);
  const loadFiles = preparedLoadFiles(config.paths, roleId);
  const parsedFiles = parsedMemoriesFiles(config.paths, roleId);
  const fitLimits = [config.settings.ROLE_LOAD_LIMIT];
  const last = lastPersist.get(loadFiles.load);
  const longTermFound = longTermOnDisk(loadFiles);
  const sameLongTerm =
    last !== undefined &&
    last.prepared.deref() === window.prepared &&
    last.fitLimits === fitLimits.join() &&
    longTermFound !== undefined &&
    last.onDisk.longTerm === longTermFound;
  const heads = headsOf(stamps.folders());
  if (
    sameLongTerm &&
    last.memories.deref() === cached.memories &&
    last.heads === heads &&
    last.onDisk.load !== undefined &&
    last.onDisk.load === loadOnDisk(loadFiles, parsedFiles) &&
    started >= last.checkedAt &&
    started - last.checkedAt < RECHECK_MS
  )
    return 'written';
  const files = [
    ...cached.memories.map((memory) => ({ category: memory.category, path: memory.path })),
    ...cached.problems.map((problem) => ({
      category: path.basename(path.dirname(problem.path)) as StoredMemory['category'],
      path: problem.path,
    })),
  ];
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const ref of files) {
    const stat = fs.statSync(ref.path, { throwIfNoEntry: false });
    const known = memories.fileStamp(roleId, ref.path);
    if (!stat || !known || stat.size !== known.size || stat.mtimeMs !== known.mtimeMs || stat.ino !== known.ino) return 'later';
    // ctime only: the kernel sets it, so a file with an mtime in the future cannot stall this forever.
    if (stat.ctimeMs >= started - RACY_MS) return 'later';
    stamps.seen(ref, stat, '');
  }
  if (stamps.folders().some((folder) => folder.racy)) return 'later';
  const [inboxFolder, ...longTermFolders] = stamps.folders();
  const inboxDir = path.join(roleDir, 'inbox');
  // Every long-term file was just found as stamped (the loop above), so the check time is now either way.
  const keep = sameLongTerm && sameFolderStamps(last.longTermFolders, longTermFolders);
  const written = writePreparedLoad(
    loadFiles,
    roleDir,
    { roleId, language: options.language, fullMinPriority: options.fullMinPriority, digestMinPriority: options.digestMinPriority },
    now,
    {
      stamps: keep ? { kept: last.written.kept, checkedAt: started } : { fresh: longTermFolders, checkedAt: started },
      prepared: window.prepared,
      ...(keep ? { stored: last.written.items } : {}),
      special: [...loadSpecialMemories(cached.longTerm)],
      problems: cached.problems.filter((problem) => path.dirname(problem.path) !== inboxDir),
      until: window.until,
    },
    {
      folders: [inboxFolder!],
      memories: [...cached.inbox],
      problems: cached.problems.filter((problem) => path.dirname(problem.path) === inboxDir),
    },
    fitLimits,
  );
  // And what a hook that finds this load stale starts from: every file as the cache parsed it.
  writeParsedMemories(parsedFiles, roleDir, stamps.folders(), cached.memories);
  lastPersist.set(loadFiles.load, {
    memories: new WeakRef(cached.memories),
    prepared: new WeakRef(window.prepared),
    fitLimits: fitLimits.join(),
    heads,
    longTermFolders,
    written,
    checkedAt: started,
    // Kept files as they were found before this write (not stat'ed again: a change since is not ours).
    onDisk: { load: loadOnDisk(loadFiles, parsedFiles), longTerm: keep ? longTermFound : longTermOnDisk(loadFiles) },
  });
  return 'written';
}
