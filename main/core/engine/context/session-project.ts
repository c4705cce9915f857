import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Memory } from '../../../../common/memory.js';
import { memoByList } from './list-memo.js';
import { rememberNarrowedRooms } from './memory-block.js';
import { PROJECT_SPECIFIC_KEY, specificFieldsOf, visibleInProject } from '../../store/projects/memory-project.js';
import { projectRootOf } from '../../store/projects/project-root.js';

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
 * The project-specific memories of a list — usually none: one pass over the list, kept with the
 * daemon's frozen list (list-memo.ts) and done ahead in its idle time (warmSessionContext), so a
 * SessionStart never walks 10,000 memories to learn that nothing is to be left out. A property
 * look-up per memory is cheap, but 10,000 scattered objects cost a few milliseconds per pass.
 */
export function projectSpecificMemories<M extends Memory>(memories: readonly M[]): readonly M[] {
  return memoByList(memories, 'project-specific', () =>
    Object.freeze(memories.filter((memory) => specificFieldsOf(memory.extra) !== undefined)),
  );
}

/**
 * The memories a session in `project` may be given: project-specific ones of other projects are
 * left out (memory-project.ts). With the daemon's frozen lists the filtered list is kept with the
 * list (list-memo.ts) and is the list itself when nothing is left out, so the long-term load's
 * caches keyed by list keep working.
 */
export function memoriesForProject<M extends Memory>(memories: readonly M[], project: string | undefined): readonly M[] {
  const specific = projectSpecificMemories(memories);
  if (specific.length === 0) return memories;
  return memoByList(memories, `project:${project ?? ''}`, () => {
    const hidden = new Set(specific.filter((memory) => !visibleInProject(memory.extra, project)));
    if (hidden.size === 0) return memories;
    const kept = memories.filter((memory) => !hidden.has(memory));
    return Object.isFrozen(memories) ? Object.freeze(kept) : kept;
  });
}

interface PreparedItems {
  full: ReadonlyArray<{ memory: Pick<Memory, 'extra'> }>;
  digest: ReadonlyArray<{ memory: Pick<Memory, 'extra'> }>;
}

export interface SpecificItems {
  full: number[];
  digest: number[];
}

const specificByPrepared = new WeakMap<object, SpecificItems>();
const preparedByProject = new WeakMap<object, Map<string, unknown>>();

/**
 * Tell where a prepared load's project-specific items are, when the caller knows without looking
 * at each: a load read back from disk keeps project fields only for those items
 * (prepared-load-file.ts), a few among 7,600, and the pass over all of them was 2 ms of it.
 */
export function rememberSpecificItems(prepared: PreparedItems, specific: SpecificItems): void {
  specificByPrepared.set(prepared, specific);
}

/**
 * Tell what `preparedForProject(prepared, project)` is, when the caller made it without looking at
 * the items: a load read back from disk reads its items only when a fit was not kept ahead
 * (prepared-load-file.ts), and narrowing would read them.
 */
export function rememberProjectShare<P extends PreparedItems>(prepared: P, project: string | undefined, narrowed: P): void {
  let byProject = preparedByProject.get(prepared);
  if (!byProject) preparedByProject.set(prepared, (byProject = new Map()));
  byProject.set(project ?? '', narrowed);
}

/** Where a prepared load's project-specific items are: one pass, kept with the load (and warmed with it). */
function specificItems(prepared: PreparedItems): SpecificItems {
  let found = specificByPrepared.get(prepared);
  if (!found) {
    // A loop, not flatMap: an array per item was 3 ms of a load read back from disk (7,600 items).
    const positions = (items: PreparedItems['full']) => {
      const found: number[] = [];
      for (let i = 0; i < items.length; i++) if (items[i]!.memory.extra?.[PROJECT_SPECIFIC_KEY] !== undefined) found.push(i);
      return found;
    };
    specificByPrepared.set(prepared, (found = { full: positions(prepared.full), digest: positions(prepared.digest) }));
  }
  return found;
}

/**
 * A long-term load prepared for every project, narrowed to what a session in `project` may see.
 * Selection judges each memory on its own, so leaving items out of the prepared (sorted,
 * formatted) load gives exactly the load prepared from the narrowed list — but the daemon
 * prepares the whole list once in its idle time, whatever project the next session is in.
 * Preparing the narrowed list instead cost every SessionStart ~130 ms at 10,000 memories once a
 * project's memory existed (the hooks bench). Only the few project-specific items are judged
 * (their positions are found once per load, in the daemon's idle time: warmSessionContext); the
 * same object when nothing is left out, and one object per project after that, so what is fitted
 * from it is kept too.
 */
export function preparedForProject<P extends PreparedItems>(prepared: P, project: string | undefined): P {
  const specific = specificItems(prepared);
  if (specific.full.length === 0 && specific.digest.length === 0) return prepared;
  let byProject = preparedByProject.get(prepared);
  if (!byProject) preparedByProject.set(prepared, (byProject = new Map()));
  const key = project ?? '';
  let narrowed = byProject.get(key) as P | undefined;
  if (!narrowed) {
    const hidden = (items: PreparedItems['full'], positions: number[]) =>
      new Set(positions.filter((i) => !visibleInProject(items[i]!.memory.extra, project)));
    const hiddenFull = hidden(prepared.full, specific.full);
    const hiddenDigest = hidden(prepared.digest, specific.digest);
    narrowed =
      hiddenFull.size === 0 && hiddenDigest.size === 0
        ? prepared
        : {
            ...prepared,
            full: prepared.full.filter((_, i) => !hiddenFull.has(i)),
            digest: prepared.digest.filter((_, i) => !hiddenDigest.has(i)),
          };
    if (narrowed !== prepared) rememberNarrowedRooms(prepared, narrowed, hiddenFull, hiddenDigest);
    byProject.set(key, narrowed);
  }
  return narrowed;
}
