import { createHash } from 'node:crypto';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type { NotesSaved, FactsView, KnownProjects, ProjectMemoryView, UiParsedRequest } from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { expandHome } from '../../platform/config/paths.js';
import { readFacts, updateFacts } from '../../store/notes/facts-file.js';
import { readProjectMemoryFile, updateProjectMemory } from '../../store/notes/project-memory.js';
import { findKnownProjects } from './known-projects.js';
import { tagErrors, tagErrorsAsync } from './ui-error-of.js';

/** An over-limit or empty text is the editor's text field at fault. */
function textProblem(error: KiokuError) {
  if (error.code === 'LIMIT_EXCEEDED') return { reason: 'text.overLimit' as const, field: 'text' };
  if (error.code === 'BAD_USAGE') return { reason: 'text.empty' as const, field: 'text' };
  return undefined;
}

/**
 * The facts and project-memory editors (DSH-1/2, APP-2 "facts/project memory editors (DSH-1/2
 * limits shown)"): the same read and update as `kioku facts` / `kioku project-memory`, so the
 * limits are checked by the one code that writes (over a limit: LIMIT_EXCEEDED, the file left as
 * it was). Two guards the CLI does not need: a save carries the revision it was edited from, so
 * an edit made meanwhile in another editor is never overwritten; and MEMORY.md is created only
 * when the request says so (DSH-2 "never created unasked": the editor's explicit button).
 */
export function revisionOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

function checkRevision(file: string, current: string, base: string): void {
  if (revisionOf(current) === base) return;
  throw new KiokuError('CONFIRM_NEEDED', `${file} changed on disk after the editor opened it; nothing was saved`, {
    path: file,
    reason: 'file.changedOnDisk',
    reasonValues: { file: path.basename(file) },
    field: 'text',
    hint: 'copy your text somewhere, reload the file, and apply your change to the new version',
  });
}

export function readFactsView(config: KiokuConfig): FactsView {
  const read = readFacts(config.paths);
  return { path: read.path, exists: read.exists, text: read.text, usage: read.usage, revision: revisionOf(read.text) };
}

export async function saveFacts(config: KiokuConfig, request: UiParsedRequest<'facts.update'>): Promise<NotesSaved<FactsView>> {
  checkRevision(config.paths.factsFile, readFacts(config.paths).text, request.revision);
  const saved = await tagErrorsAsync(() => updateFacts(config.paths, request.text), textProblem);
  return { created: saved.created, changedByCleaning: saved.changedByCleaning, warnings: saved.warnings, view: readFactsView(config) };
}

/**
 * A folder the user picked or typed: `~` is the user's home; anything else must be a full path
 * (relative to what? the app has no current folder the user knows of). Whether it exists and is
 * a folder is checked by project-memory.ts, which names the path when it is not.
 */
export function projectFolderOf(config: KiokuConfig, typed: string): string {
  const trimmed = typed.trim();
  const expanded = expandHome(trimmed, config.env.HOME || undefined);
  if (!trimmed || !path.isAbsolute(expanded)) {
    throw new KiokuError('BAD_USAGE', `"${trimmed}" is not a full folder path`, {
      hint: 'type the project folder as a full path, e.g. /home/you/project or ~/project',
      reason: 'project.notAbsolute',
      field: 'project',
    });
  }
  return path.resolve(expanded);
}

function projectView(config: KiokuConfig, project: string): ProjectMemoryView {
  const folder = projectFolderOf(config, project);
  // project-memory.ts speaks to the CLI (--project DIR); the editor names its own field.
  const read = tagErrors(
    () => readProjectMemoryFile(folder),
    (error) =>
      error.code === 'NOT_FOUND' && error.path === folder
        ? { reason: 'project.missing', reasonValues: { folder }, field: 'project' }
        : error.code === 'BAD_USAGE' && error.path === folder
          ? { reason: 'project.notFolder', reasonValues: { folder }, field: 'project' }
          : undefined,
  );
  return {
    project: read.project,
    path: read.path,
    exists: read.exists,
    text: read.text,
    usage: read.usage,
    revision: revisionOf(read.text),
  };
}

export function readProjectMemoryView(config: KiokuConfig, request: UiParsedRequest<'projectMemory.read'>): ProjectMemoryView {
  return projectView(config, request.project);
}

export async function saveProjectMemory(
  config: KiokuConfig,
  request: UiParsedRequest<'projectMemory.update'>,
): Promise<NotesSaved<ProjectMemoryView>> {
  const current = projectView(config, request.project);
  if (!current.exists && request.create !== true) {
    throw new KiokuError('REFUSED', `${current.path} does not exist; it was not created`, {
      path: current.path,
      hint: 'a project memory is created only on request: use "Create MEMORY.md" in the editor (or `kioku project-memory update --project DIR`)',
      reason: 'projectMemory.notCreated',
      field: 'project',
    });
  }
  checkRevision(current.path, current.text, request.revision);
  const saved = await tagErrorsAsync(() => updateProjectMemory(current.project, request.text), textProblem);
  return {
    created: saved.created,
    changedByCleaning: saved.changedByCleaning,
    warnings: saved.warnings,
    view: projectView(config, current.project),
  };
}

export function knownProjects(config: KiokuConfig): KnownProjects {
  return { projects: findKnownProjects(config) };
}
