import path from 'node:path';

/**
 * Which project a memory belongs to (issue 12).
 * Design notes: docs/design-notes.md, "main/core/store/projects/memory-project.ts".
 */
export const PROJECT_KEY = 'project';
export const PROJECT_SPECIFIC_KEY = 'project_specific';

export interface ProjectFields {
  /** Absolute project folders; empty when none is recorded. */
  projects: string[];
  specific: boolean;
}

function asProjects(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const entry of list) {
    if (typeof entry !== 'string' || !entry.trim() || !path.isAbsolute(entry.trim())) continue;
    const folder = path.resolve(entry.trim());
    if (!out.includes(folder)) out.push(folder);
  }
  return out;
}

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === 'string' && /^(?:true|yes|1)$/i.test(value.trim()));
}

/** The project fields of a memory's frontmatter (`extra`). */
export function projectFieldsOf(extra: Readonly<Record<string, unknown>> | undefined): ProjectFields {
  const projects = asProjects(extra?.[PROJECT_KEY]);
  return { projects, specific: projects.length > 0 && isTrue(extra?.[PROJECT_SPECIFIC_KEY]) };
}

/** The frontmatter keys for these fields (absent ones left out, so a global memory gains nothing). */
export function projectExtra(fields: ProjectFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (fields.projects.length === 1) out[PROJECT_KEY] = fields.projects[0];
  else if (fields.projects.length > 1) out[PROJECT_KEY] = [...fields.projects];
  if (fields.specific && fields.projects.length) out[PROJECT_SPECIFIC_KEY] = true;
  return out;
}

/** `extra` with its project keys replaced by these fields. */
export function withProjectFields(extra: Readonly<Record<string, unknown>>, fields: ProjectFields): Record<string, unknown> {
  const out: Record<string, unknown> = { ...extra };
  delete out[PROJECT_KEY];
  delete out[PROJECT_SPECIFIC_KEY];
  return { ...out, ...projectExtra(fields) };
}

const fieldsByExtra = new WeakMap<object, ProjectFields>();

/**
 * A memory's fields when it is project-specific, else undefined. Runs for every memory of a load
 * (10,000 and more) on each SessionStart, so a memory without the key — nearly all — is answered
 * from one property look-up, and a parsed `extra` is kept with its object.
 */
export function specificFieldsOf(extra: Readonly<Record<string, unknown>> | undefined): ProjectFields | undefined {
  if (!extra || extra[PROJECT_SPECIFIC_KEY] === undefined) return undefined;
  let fields = fieldsByExtra.get(extra);
  if (!fields) fieldsByExtra.set(extra, (fields = projectFieldsOf(extra)));
  return fields.specific ? fields : undefined;
}

/** Whether a memory belongs in a session in `project` (undefined: a session in no project). */
export function visibleInProject(extra: Readonly<Record<string, unknown>> | undefined, project: string | undefined): boolean {
  const fields = specificFieldsOf(extra);
  if (!fields) return true;
  if (!project) return false;
  return fields.projects.includes(path.resolve(project));
}

/** Whether a memory was said in (or belongs to) `project`. */
export function saidInProject(extra: Readonly<Record<string, unknown>> | undefined, project: string | undefined): boolean {
  if (!project) return false;
  return projectFieldsOf(extra).projects.includes(path.resolve(project));
}

/** A created or merged memory's fields, from those of all its parts (see the rules above). */
export function combineProjectFields(parts: readonly ProjectFields[]): ProjectFields {
  const specific = parts.filter((part) => part.specific && part.projects.length);
  if (specific.length) return { projects: [...new Set(specific.flatMap((part) => part.projects))], specific: true };
  const first = parts[0]?.projects;
  const shared =
    first &&
    first.length &&
    parts.every((part) => part.projects.length === first.length && part.projects.every((folder) => first.includes(folder)));
  return { projects: shared ? [...first] : [], specific: false };
}
