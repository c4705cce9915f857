import path from 'node:path';
import type { MemoryLoadProblem, StoredMemory } from '../../../../common/memory.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { longTermOptions } from '../../engine/context/assemble-session-context.js';
import { loadSpecialMemories } from '../../engine/context/load-special-memories.js';
import { prepareLongTermWindow, type PreparedLongTermMemory } from '../../engine/context/memory-block.js';
import {
  INBOX_CATEGORIES,
  LONG_TERM_CATEGORIES,
  readPreparedLoad,
  writePreparedLoad,
  type PreparedInboxPart,
  type PreparedLongTermPart,
} from '../../engine/context/prepared-load-file.js';
import { collectStamps } from '../../engine/context/prepared-load-stamps.js';
import { countOlder } from '../../engine/context/prepared-inbox.js';
import { inboxNewestFirst, type OlderInboxCount } from '../../engine/context/inbox-block.js';
import { memoriesForProject } from '../../engine/context/session-project.js';
import { readParsedMemories, writeParsedMemories } from '../../engine/context/parsed-memories-file.js';
import { parsedMemoriesFiles, preparedLoadFiles } from '../../platform/config/prepared-paths.js';
import type { FullCheckPolicy } from '../../store/memory/full-check-policy.js';
import { traceMark } from '../../platform/config/trace.js';
import { loadRoleMemories, roleMemoryDir } from '../../store/memory/memory-layout.js';
import type { RoleDefinition } from '../../store/roles/role-definition.js';

/**
 * A role's memories for a load computed without the daemon (HOOK-5), through its prepared load
 * on disk: reused, inbox re-read alone, or recomputed and written back; each gives the same load.
 * Design notes: docs/design-notes.md, "main/core/hosts/hook-handlers/file-mode-memories.ts".
 */
export interface FileModeMemories {
  /** The inbox and, with a prepared load, only `loadSpecialMemories` of the rest. */
  memories: readonly StoredMemory[];
  /**
   * The inbox alone when it was read back from the prepared load: frozen and already in its
   * block's order (prepared-load-file.ts), for the assembly's `inboxMemories`.
   */
  inbox?: readonly StoredMemory[];
  problems: MemoryLoadProblem[];
  preparedLongTerm: PreparedLongTermMemory;
  /** With `inbox`, when it holds only the newest: the older ones counted (prepared-inbox.ts). */
  olderInbox?: OlderInboxCount;
  /** Where the long-term part came from (logged, and told by the tests). */
  source: 'prepared' | 'prepared, inbox read' | 'files';
}

/**
 * `project`: the session's (session-project.ts), whose share of the long-term items the load
 * shows. `save: false` (the UI's preview) reads a prepared load but never writes one. `fullCheck`:
 * when the files are stat'ed one by one (full-check-policy.ts; tests reach a large role's path
 * with a few).
 */
export function memoriesFromFiles(
  config: KiokuConfig,
  role: RoleDefinition,
  now: Date,
  logger: Logger,
  project: string | undefined,
  persist: { save: boolean; fullCheck?: FullCheckPolicy } = { save: true },
): FileModeMemories {
  const { memoryHome } = config.paths;
  const roleDir = roleMemoryDir(memoryHome, role.id);
  const options = longTermOptions({ config, role }, now);
  const key = {
    roleId: role.id,
    language: options.language,
    fullMinPriority: options.fullMinPriority,
    digestMinPriority: options.digestMinPriority,
  };
  const files = preparedLoadFiles(config.paths, role.id);
  const recompute = () => {
    const read = loadRoleMemories(memoryHome, role.id, { categories: LONG_TERM_CATEGORIES });
    logger.info('context', `${role.id}: the prepared load's items could not be read; computed from the files`);
    return prepareLongTermWindow(Object.freeze(read.memories), options).prepared;
  };
  const found = readPreparedLoad(files, roleDir, key, now, { project, recompute }, persist.fullCheck);
  traceMark(found.longTerm ? 'prepared-valid' : 'prepared-stale');
  const save = (longTerm: PreparedLongTermPart, inbox: PreparedInboxPart) => {
    if (!persist.save) return;
    try {
      writePreparedLoad(files, roleDir, key, now, longTerm, inbox, [config.settings.ROLE_LOAD_LIMIT]);
    } catch (error) {
      // Only the next load's head start is lost; this one is already computed.
      logger.info('context', `could not write the prepared load of ${role.id}: ${(error as Error).message}`);
    }
  };
  const started = Date.now();
  if (found.longTerm) {
    const longTerm = found.longTerm;
    const kept = found.inbox;
    // What the full check found (which unpacked the inbox's stamps), so the next loads skip it.
    if (kept?.folders && found.rewrite) save(longTerm, { ...kept, folders: kept.folders });
    const older = kept && countOlder(kept.older, project, now);
    // The newest must hold every item the block shows, judged as the block judges them (the same
    // narrowing and expiry, kept with the frozen list for the assembly), unless no older one is shown.
    const newestSuffice = (newest: readonly StoredMemory[]) =>
      inboxNewestFirst(memoriesForProject(newest, project), now).length >= config.settings.ROLE_LOAD_INBOX_COUNT;
    if (kept && older && (older.injectable === 0 || newestSuffice(kept.memories))) {
      // The inbox comes first, as loadRoleMemories lists the folders (ALL_CATEGORIES).
      return {
        memories: [...kept.memories, ...kept.olderSpecial, ...longTerm.special],
        inbox: kept.memories,
        olderInbox: older,
        problems: [...kept.problems, ...longTerm.problems],
        preparedLongTerm: longTerm.prepared,
        source: 'prepared',
      };
    }
    // The inbox changed, or the block would show some of its older memories: its files are read.
    const stamps = collectStamps(roleDir, INBOX_CATEGORIES, started);
    // Not through the parsed memories: reading all of them costs about what the inbox alone does.
    const read = loadRoleMemories(memoryHome, role.id, { categories: INBOX_CATEGORIES, seen: stamps.seen });
    if (!kept) save(longTerm, { folders: stamps.folders(), ...read });
    return {
      memories: [...read.memories, ...longTerm.special],
      problems: [...read.problems, ...longTerm.problems],
      preparedLongTerm: longTerm.prepared,
      source: 'prepared, inbox read',
    };
  }
  // When every file was last found as stamped: now, on the full-check policy's clock.
  const checkedAt = (persist.fullCheck?.nowMs ?? Date.now)();
  const categories = [...INBOX_CATEGORIES, ...LONG_TERM_CATEGORIES];
  const stamps = collectStamps(roleDir, categories, started);
  // Read only when every folder must be listed: most files are then as they were parsed last time.
  const parsedFiles = parsedMemoriesFiles(config.paths, role.id);
  const parsed = readParsedMemories(parsedFiles, roleDir, role.id, categories);
  const read = loadRoleMemories(memoryHome, role.id, { seen: stamps.seen, cached: parsed.lookup });
  // Frozen, so that what the load derives from the list (list-memo.ts) is worked out once for
  // this write and the assembly alike — `loadSpecialMemories` walks all 10,000.
  const memories = Object.freeze(read.memories);
  const problems = read.problems;
  const window = prepareLongTermWindow(memories, options);
  const [inboxFolder, ...longTermFolders] = stamps.folders();
  const inboxDir = path.join(roleDir, 'inbox');
  save(
    {
      stamps: { fresh: longTermFolders, checkedAt },
      prepared: window.prepared,
      special: loadSpecialMemories(memories).filter((memory) => memory.category !== 'inbox'),
      problems: problems.filter((problem) => path.dirname(problem.path) !== inboxDir),
      until: window.until,
    },
    {
      folders: [inboxFolder!],
      memories: memories.filter((memory) => memory.category === 'inbox'),
      problems: problems.filter((problem) => path.dirname(problem.path) === inboxDir),
    },
  );
  const unchanged = parsed.unchangedFolders(memories);
  if (persist.save && unchanged.size < categories.length) {
    try {
      writeParsedMemories(parsedFiles, roleDir, stamps.folders(), memories, unchanged);
    } catch (error) {
      logger.info('context', `could not write the parsed memories of ${role.id}: ${(error as Error).message}`);
    }
  }
  return { memories, problems, preparedLongTerm: window.prepared, source: 'files' };
}
