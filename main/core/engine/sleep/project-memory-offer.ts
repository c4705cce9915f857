import fs from 'node:fs';
import path from 'node:path';
import type { Memory, StoredMemory } from '../../../../common/memory.js';
import { PROJECT_MEMORY_MAX_CHARS, countProjectMemoryChars } from '../../store/notes/notes-limits.js';
import { PROJECT_MEMORY_FILE } from '../../store/notes/project-memory.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { rewriteMemoryFile } from '../../store/memory/rewrite-memory.js';
import { compareMemoryValue } from '../context/memory-selection.js';
import { projectFieldsOf } from '../../store/projects/memory-project.js';
import { OFFERED_KEY, offeredTo, waitsForProject } from '../context/project-conventions.js';

/**
 * Project conventions reach the project's MEMORY.md (DSH-2, issue 12). After a consolidation,
 * under the role's memory lock, every consolidated project-specific convention not offered yet is
 * appended to `<project>/MEMORY.md` as one line (`- <summary>`), most valuable first:
 *
 * - only when MEMORY.md exists: DSH-2 "never created unasked" (the convention is still injected
 *   from the role's memory in that project's sessions);
 * - only whole lines within the 8,000-character cap; what does not fit is not cut and not
 *   dropped: it stays waiting, and the project's sessions say so (`waitingConventions` →
 *   the session context note) until the user makes room;
 * - a convention already there (its summary is in the file) is not written twice;
 * - the memory is marked `project_memory_added: <project>` once it is in the file, so a line the
 *   user deletes by hand is not put back the next night.
 *
 * Conventions: rule, preference, procedural and semantic memories without `expires` (a temporary
 * grant must not outlive itself in a file nobody expires); feelings and episodes are not.
 */
function lineOf(memory: Memory): string {
  return `- ${memory.summary.replace(/\s+/g, ' ').trim()}`;
}

export interface ProjectOfferResult {
  project: string;
  added: string[];
  /** Conventions that did not fit under the cap (ids), left waiting. */
  waiting: string[];
  /** MEMORY.md does not exist: nothing written, nothing created. */
  noFile: boolean;
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function markOffered(memory: StoredMemory, project: string): void {
  rewriteMemoryFile(memory.path, { folderCategory: memory.category }, (current) => {
    const already = offeredTo(current);
    if (already.includes(project)) return false;
    const next = [...already, project];
    return { ...current, extra: { ...current.extra, [OFFERED_KEY]: next.length === 1 ? next[0] : next } };
  });
}

/** Offer the waiting conventions of every project among `memories` (the caller holds the memory lock). */
export function offerProjectConventions(memories: readonly StoredMemory[]): ProjectOfferResult[] {
  const byProject = new Map<string, StoredMemory[]>();
  for (const memory of memories) {
    for (const project of projectFieldsOf(memory.extra).projects) {
      if (!waitsForProject(memory, project)) continue;
      byProject.set(project, [...(byProject.get(project) ?? []), memory]);
    }
  }
  const results: ProjectOfferResult[] = [];
  for (const [project, waiting] of byProject) {
    const file = path.join(project, PROJECT_MEMORY_FILE);
    const text = readIfExists(file);
    if (text === undefined) {
      results.push({ project, added: [], waiting: waiting.map((memory) => memory.id), noFile: true });
      continue;
    }
    let next = text;
    const added: string[] = [];
    const left: string[] = [];
    for (const memory of [...waiting].sort(compareMemoryValue)) {
      const summary = memory.summary.replace(/\s+/g, ' ').trim();
      if (!summary) continue;
      if (next.includes(summary)) {
        markOffered(memory, project);
        continue;
      }
      const candidate = `${next}${next === '' || next.endsWith('\n') ? '' : '\n'}${lineOf(memory)}\n`;
      if (countProjectMemoryChars(candidate) > PROJECT_MEMORY_MAX_CHARS) {
        left.push(memory.id);
        continue;
      }
      next = candidate;
      added.push(memory.id);
    }
    if (next !== text) writeFileAtomicSync(file, next, { mkdir: false });
    for (const memory of waiting) if (added.includes(memory.id)) markOffered(memory, project);
    results.push({ project, added, waiting: left, noFile: false });
  }
  return results;
}

/**
 * The consolidation's step (consolidate-role.ts): offer, and report what waits as warnings. A
 * project folder that cannot be written never fails the consolidation.
 */
export function offerAfterConsolidation(memories: readonly StoredMemory[]): string[] {
  try {
    return offerProjectConventions(memories)
      .filter((result) => !result.noFile && result.waiting.length)
      .map(
        (result) =>
          `${result.waiting.length} convention(s) of ${result.project} wait: ${PROJECT_MEMORY_FILE} would exceed ${PROJECT_MEMORY_MAX_CHARS} characters; nothing was cut`,
      );
  } catch (error) {
    return [`project conventions were not offered to ${PROJECT_MEMORY_FILE}: ${(error as Error).message}`];
  }
}
