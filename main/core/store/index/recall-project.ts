import path from 'node:path';
import type { ProjectFields } from '../projects/memory-project.js';

/**
 * Recall in a project (issue 12): the current project's memories first, then user-wide ones,
 * then other projects' conventions — each group in its own score order — and those last carry
 * their project, so the role never takes another repository's rule for this one's. The fields
 * come from the index (memory-rows.ts `projects`, `project_specific`): reading the frontmatter of
 * the 20 rows a recall in a project looks at cost about 5 ms at every recall.
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

/** The project fields an index row holds (memory-rows.ts toMemoryRow). */
function rowProjectFields(row: { projects: string; project_specific: number }): ProjectFields {
  const projects = row.projects ? row.projects.split('\n') : [];
  return { projects, specific: projects.length > 0 && row.project_specific === 1 };
}

/** Rows reordered for `project` and cut to `limit`, each with its project (rows are in score order). */
export function orderForProject<R extends { projects: string; project_specific: number }>(
  rows: readonly R[],
  project: string | undefined,
  limit: number,
): { row: R; project: RecallProject }[] {
  const here = project ? path.resolve(project) : undefined;
  const tagged = rows.map((row, index) => {
    const fields = rowProjectFields(row);
    const mine = here !== undefined && fields.projects.includes(here);
    const group = mine ? 0 : fields.specific ? 2 : 1;
    return { row, index, group, project: { projects: fields.projects, specific: fields.specific, here: mine } };
  });
  if (here !== undefined) tagged.sort((a, b) => a.group - b.group || a.index - b.index);
  return tagged.slice(0, limit).map(({ row, project: fields }) => ({ row, project: fields }));
}

export { otherProjectLabel } from '../projects/project-label.js';
