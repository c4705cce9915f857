import path from 'node:path';
import type { Memory } from '../../../common/memory.js';
import { projectFieldsOf } from './memory-project.js';

/**
 * Which memories are a project's conventions still to be written into its MEMORY.md (issue 12,
 * project-memory-offer.ts). Pure, so the hook path (the session note, project-note-block.ts) can
 * ask without loading the writers.
 */
export const OFFERED_KEY = 'project_memory_added';

const CONVENTION_TYPES: ReadonlySet<string> = new Set(['rule', 'preference', 'procedural', 'semantic']);

export function offeredTo(memory: Pick<Memory, 'extra'>): string[] {
  const value = memory.extra[OFFERED_KEY];
  return (Array.isArray(value) ? value : [value]).filter((entry): entry is string => typeof entry === 'string').map((entry) => path.resolve(entry));
}

/** Whether `memory` is a convention of `project` still to be written into its MEMORY.md. */
export function waitsForProject(memory: Memory, project: string): boolean {
  if (memory.category === 'inbox' || !CONVENTION_TYPES.has(memory.memory_type) || memory.expires.trim()) return false;
  const fields = projectFieldsOf(memory.extra);
  const here = path.resolve(project);
  return fields.specific && fields.projects.includes(here) && !offeredTo(memory).includes(here);
}

/**
 * For a session in `project` whose MEMORY.md exists: the consolidated conventions of that project
 * still waiting for room in it (what `offerProjectConventions` could not append under the cap).
 */
export function waitingConventions(memories: readonly Memory[], project: string | undefined): Memory[] {
  if (!project) return [];
  return memories.filter((memory) => waitsForProject(memory, project));
}

