import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Memory } from '../../../common/memory.js';
import { memoByList } from '../context/list-memo.js';
import { visibleInProject } from './memory-project.js';
import { projectRootOf } from './project-root.js';

/** The project of a session (SessionStart, a call by name): the git top level of its cwd. */
export function sessionProject(env: NodeJS.ProcessEnv, cwd: string | undefined): string | undefined {
  return projectRootOf(cwd, env.HOME || os.homedir());
}

/**
 * Where a session's MEMORY.md (DSH-2) is: the cwd's own when it has one (as before issue 12),
 * else the project's top level — so a session opened in a subfolder of a repository still gets
 * the repository's project memory, and capture offers conventions to the same file it reads.
 */
export function projectMemoryFolder(cwd: string | undefined, project: string | undefined): string | undefined {
  if (cwd && fs.existsSync(path.join(cwd, 'MEMORY.md'))) return cwd;
  return project ?? cwd;
}

/**
 * The memories a session in `project` may be given: project-specific ones of other projects are
 * left out (memory-project.ts). With the daemon's frozen lists the filtered list is kept with the
 * list (list-memo.ts) and is the list itself when nothing is left out, so the long-term load's
 * caches keyed by list keep working.
 */
export function memoriesForProject<M extends Memory>(memories: readonly M[], project: string | undefined): readonly M[] {
  return memoByList(memories, `project:${project ?? ''}`, () => {
    const kept = memories.filter((memory) => visibleInProject(memory.extra, project));
    if (kept.length === memories.length) return memories;
    return Object.isFrozen(memories) ? Object.freeze(kept) : kept;
  });
}
