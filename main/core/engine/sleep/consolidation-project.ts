import fs from 'node:fs';
import { parseMemory } from '../../store/memory/memory-file.js';
import {
  combineProjectFields,
  projectExtra,
  projectFieldsOf,
  withProjectFields,
  type ProjectFields,
} from '../../store/projects/memory-project.js';

/**
 * Consolidation keeps the project (issue 12). The apply step — not the planner — decides a created
 * or merged memory's `project` / `project_specific` from its parts (memory-project.ts
 * combineProjectFields), so the local planner and an LLM planner give the same answer, and a
 * replay after a crash the same bytes: the inbox items' fields are recorded in the pending plan
 * with their `created`, before any memory file changes.
 */

/** The project keys of an inbox file, as the pending plan records them (nothing for a global item). */
export function inboxProjectFields(file: string): { project?: string | string[]; project_specific?: boolean } {
  let fields: ProjectFields;
  try {
    fields = projectFieldsOf(parseMemory(fs.readFileSync(file, 'utf8')).extra);
  } catch {
    return {};
  }
  if (!fields.projects.length) return {};
  return {
    project: fields.projects.length === 1 ? fields.projects[0]! : fields.projects,
    ...(fields.specific ? { project_specific: true } : {}),
  };
}

/** The pending plan's recorded fields, by inbox id. */
export function sourceProjectFields(
  sources: Readonly<Record<string, { project?: string | string[]; project_specific?: boolean }>>,
): Map<string, ProjectFields> {
  const out = new Map<string, ProjectFields>();
  for (const [id, source] of Object.entries(sources)) out.set(id, projectFieldsOf(source as Record<string, unknown>));
  return out;
}

const GLOBAL: ProjectFields = { projects: [], specific: false };

function partsOf(recorded: ReadonlyMap<string, ProjectFields> | undefined, sources: readonly string[]): ProjectFields[] {
  return sources.map((id) => recorded?.get(id) ?? GLOBAL);
}

/** A created memory's project keys: from its sources alone. */
export function createdProjectExtra(
  recorded: ReadonlyMap<string, ProjectFields> | undefined,
  sources: readonly string[],
): Record<string, unknown> {
  return projectExtra(combineProjectFields(partsOf(recorded, sources)));
}

/**
 * A merge target's `extra` after the merge: the target is one more part. A plan recorded before
 * issue 12 (nothing recorded) leaves the target's keys as they were.
 */
export function mergedProjectExtra(
  extra: Record<string, unknown>,
  recorded: ReadonlyMap<string, ProjectFields> | undefined,
  sources: readonly string[],
): Record<string, unknown> {
  if (!recorded || sources.every((id) => !recorded.has(id))) return extra;
  return withProjectFields(extra, combineProjectFields([projectFieldsOf(extra), ...partsOf(recorded, sources)]));
}
