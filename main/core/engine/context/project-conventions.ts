import path from 'node:path';
import type { Memory } from '../../../../common/memory.js';
import { memoByList } from './list-memo.js';
import { specificFieldsOf } from '../../store/projects/memory-project.js';
import { projectSpecificMemories } from './session-project.js';

/**
 * Which memories are a project's conventions still to be written into its MEMORY.md (issue 12,
 * project-memory-offer.ts). Pure, so the hook path (the session note, project-note-block.ts) can
 * ask without loading the writers.
 */
export const OFFERED_KEY = 'project_memory_added';

const CONVENTION_TYPES: ReadonlySet<string> = new Set(['rule', 'preference', 'procedural', 'semantic']);

export function offeredTo(memory: Pick<Memory, 'extra'>): string[] {
  const value = memory.extra[OFFERED_KEY];
  return (Array.isArray(value) ? value : [value])
    .filter((entry): entry is string => typeof entry === 'string')
    .map((entry) => path.resolve(entry));
}

/** Whether `memory` is a convention of `project` still to be written into its MEMORY.md. */
export function waitsForProject(memory: Memory, project: string): boolean {
  // The project-specific key first: one look-up answers nearly every memory of a 10,000-memory load.
  const fields = specificFieldsOf(memory.extra);
  if (!fields || memory.category === 'inbox' || !CONVENTION_TYPES.has(memory.memory_type) || memory.expires.trim()) return false;
  const here = path.resolve(project);
  return fields.projects.includes(here) && !offeredTo(memory).includes(here);
}

/**
 * For a session in `project` whose MEMORY.md exists: the consolidated conventions of that project
 * still waiting for room in it (what `offerProjectConventions` could not append under the cap).
 */
export function waitingConventions(memories: readonly Memory[], project: string | undefined): readonly Memory[] {
  if (!project) return [];
  // Only project-specific memories can wait, and the daemon knows those ahead (session-project.ts);
  // the answer is kept with its frozen list (list-memo.ts): every SessionStart in the project asks.
  return memoByList(memories, `waiting:${project}`, () =>
    projectSpecificMemories(memories).filter((memory) => waitsForProject(memory, project)),
  );
}
