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

interface PreparedItems {
  full: ReadonlyArray<{ memory: Pick<Memory, 'extra'> }>;
  digest: ReadonlyArray<{ memory: Pick<Memory, 'extra'> }>;
}

const preparedByProject = new WeakMap<object, Map<string, unknown>>();

/**
 * A long-term load prepared for every project, narrowed to what a session in `project` may see.
 * Selection judges each memory on its own, so leaving items out of the prepared (sorted,
 * formatted) load gives exactly the load prepared from the narrowed list — but the daemon
 * prepares the whole list once in its idle time, whatever project the next session is in.
 * Preparing the narrowed list instead cost every SessionStart ~130 ms at 10,000 memories once a
 * project's memory existed (the hooks bench). The same object when nothing is left out, and one
 * object per project after that, so what is fitted from it is kept too.
 */
export function preparedForProject<P extends PreparedItems>(prepared: P, project: string | undefined): P {
  let byProject = preparedByProject.get(prepared);
  if (!byProject) preparedByProject.set(prepared, (byProject = new Map()));
  const key = project ?? '';
  let narrowed = byProject.get(key) as P | undefined;
  if (!narrowed) {
    const visible = (item: { memory: Pick<Memory, 'extra'> }) => visibleInProject(item.memory.extra, project);
    narrowed = prepared.full.every(visible) && prepared.digest.every(visible) ? prepared : { ...prepared, full: prepared.full.filter(visible), digest: prepared.digest.filter(visible) };
    byProject.set(key, narrowed);
  }
  return narrowed;
}
