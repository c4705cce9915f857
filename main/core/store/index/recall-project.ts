import fs from 'node:fs';
import path from 'node:path';
import { parseMemory } from '../memory/memory-file.js';
import { projectFieldsOf, type ProjectFields } from '../projects/memory-project.js';

/**
 * Recall in a project (issue 12): the current project's memories first, then user-wide ones,
 * then other projects' conventions — each group in its own score order — and those last carry
 * their project, so the role never takes another repository's rule for this one's. The index
 * has no project column; the few files a recall returns are read for their frontmatter instead
 * (recall reads them anyway for the write-back).
 */
export interface RecallProject {
  /** The projects the memory names (empty: none recorded). */
  projects: string[];
  /** Holds in those projects only. */
  specific: boolean;
  /** It is the current project's (said in it or kept to it). */
  here: boolean;
}

/** How many rows to ask the index for, so that a project's own memories beyond the first `limit` can move up. */
export function widenedLimit(limit: number, project: string | undefined): number {
  return project ? Math.min(100, Math.max(limit, limit * 4)) : limit;
}

function fieldsOfFile(file: string): ProjectFields {
  try {
    return projectFieldsOf(parseMemory(fs.readFileSync(file, 'utf8')).extra);
  } catch {
    return { projects: [], specific: false };
  }
}

/** Rows reordered for `project` and cut to `limit`, each with its project (rows are in score order). */
export function orderForProject<R>(
  rows: readonly R[],
  fileOf: (row: R) => string,
  project: string | undefined,
  limit: number,
): { row: R; project: RecallProject }[] {
  const here = project ? path.resolve(project) : undefined;
  const tagged = rows.map((row, index) => {
    const fields = fieldsOfFile(fileOf(row));
    const mine = here !== undefined && fields.projects.includes(here);
    const group = mine ? 0 : fields.specific ? 2 : 1;
    return { row, index, group, project: { projects: fields.projects, specific: fields.specific, here: mine } };
  });
  if (here !== undefined) tagged.sort((a, b) => a.group - b.group || a.index - b.index);
  return tagged.slice(0, limit).map(({ row, project: fields }) => ({ row, project: fields }));
}

export { otherProjectLabel } from '../projects/project-label.js';
