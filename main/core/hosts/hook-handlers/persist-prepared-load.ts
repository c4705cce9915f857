import fs from 'node:fs';
import path from 'node:path';
import type { StoredMemory } from '../../../../common/memory.js';
import { longTermOptions } from '../../engine/context/assemble-session-context.js';
import { loadSpecialMemories } from '../../engine/context/load-special-memories.js';
import { prepareLongTermWindow } from '../../engine/context/memory-block.js';
import { INBOX_CATEGORIES, LONG_TERM_CATEGORIES, writePreparedLoad } from '../../engine/context/prepared-load-file.js';
import { collectStamps, RACY_MS } from '../../engine/context/prepared-load-stamps.js';
import { writeParsedMemories } from '../../engine/context/parsed-memories-file.js';
import { parsedMemoriesPath, preparedLoadFiles } from '../../platform/config/prepared-paths.js';
import type { MemoryCache } from '../../store/memory/memory-cache.js';
import { roleMemoryDir } from '../../store/memory/memory-layout.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import type { HookContext } from './hook-handler.js';

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
  const role = readRoleDefinition(config.paths.roleHome, roleId);
  const now = config.clock.now();
  const options = longTermOptions({ config, role }, now);
  const window = prepareLongTermWindow(cached.longTerm, options);
  const [inboxFolder, ...longTermFolders] = stamps.folders();
  const inboxDir = path.join(roleDir, 'inbox');
  writePreparedLoad(
    preparedLoadFiles(config.paths, roleId),
    roleDir,
    { roleId, language: options.language, fullMinPriority: options.fullMinPriority, digestMinPriority: options.digestMinPriority },
    now,
    {
      stamps: { fresh: longTermFolders, checkedAt: started },
      prepared: window.prepared,
      special: [...loadSpecialMemories(cached.longTerm)],
      problems: cached.problems.filter((problem) => path.dirname(problem.path) !== inboxDir),
      until: window.until,
    },
    {
      folders: [inboxFolder!],
      memories: [...cached.inbox],
      problems: cached.problems.filter((problem) => path.dirname(problem.path) === inboxDir),
    },
    [config.settings.ROLE_LOAD_LIMIT],
  );
  // And what a hook that finds this load stale starts from: every file as the cache parsed it.
  writeParsedMemories(parsedMemoriesPath(config.paths, roleId), roleDir, stamps.folders(), cached.memories);
  return 'written';
}
