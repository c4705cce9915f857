import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { cleanNotesText } from './clean-notes-text.js';
import { PROJECT_MEMORY_MAX_CHARS, measureProjectMemory, type ProjectMemoryUsage } from './notes-limits.js';

/**
 * DSH-2 project memory, `<project>/MEMORY.md`: this project's conventions and facts, injected when
 * it exists (main/core/engine/context/context-files.ts) and is never created automatically (DSH-2). Only an
 * explicit update creates it. DSH-2's 8000 characters: before 0.4.0 the notes skill's write side did
 * not check and the read side cut silently; here the write side
 * refuses above the limit and points to the journal, and nothing is ever cut.
 */
export const PROJECT_MEMORY_FILE = 'MEMORY.md';

export interface ProjectMemoryRead {
  /** The project folder, absolute. */
  project: string;
  path: string;
  exists: boolean;
  text: string;
  usage: ProjectMemoryUsage;
}

export interface ProjectMemoryUpdate {
  project: string;
  path: string;
  usage: ProjectMemoryUsage;
  created: boolean;
  changedByCleaning: boolean;
  warnings: string[];
}

/** The project folder must exist and be a folder: MEMORY.md is never written into a path made up on the spot. */
function projectFolder(dir: string): string {
  const project = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(project);
  } catch {
    throw new KiokuError('NOT_FOUND', `project folder ${project} does not exist`, {
      path: project,
      hint: 'pass an existing folder with --project DIR (default: the current folder)',
    });
  }
  if (!stat.isDirectory()) {
    throw new KiokuError('BAD_USAGE', `${project} is not a folder`, {
      path: project,
      hint: `pass the project's folder with --project DIR, not ${PROJECT_MEMORY_FILE} itself`,
    });
  }
  return project;
}

export function projectMemoryPath(dir: string): string {
  return path.join(path.resolve(dir), PROJECT_MEMORY_FILE);
}

/** Read `<dir>/MEMORY.md` with its usage; a missing file is reported (`exists: false`), never created. */
export function readProjectMemoryFile(dir: string): ProjectMemoryRead {
  const project = projectFolder(dir);
  const file = path.join(project, PROJECT_MEMORY_FILE);
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { project, path: file, exists: text !== undefined, text: text ?? '', usage: measureProjectMemory(text ?? '') };
}

export function projectMemoryLimitError(file: string, usage: ProjectMemoryUsage): KiokuError {
  return new KiokuError(
    'LIMIT_EXCEEDED',
    `refused to write ${file}: the new text has ${usage.chars} characters (limit ${PROJECT_MEMORY_MAX_CHARS}); the file was not changed`,
    {
      path: file,
      hint: 'keep MEMORY.md to the conventions and facts every session needs; running notes and long write-ups go to the journal (`kioku journal append --text …`), which has no limit',
    },
  );
}

/**
 * Replace `<dir>/MEMORY.md` with `text`, creating it when missing (this call is the explicit ask).
 * Cleaned (PRIV-1/2) first; refused above PROJECT_MEMORY_MAX_CHARS, and when empty.
 */
export async function updateProjectMemory(dir: string, text: string): Promise<ProjectMemoryUpdate> {
  const project = projectFolder(dir);
  const file = path.join(project, PROJECT_MEMORY_FILE);
  const given = text.replace(/^\uFEFF/, '');
  if (!given.trim()) {
    throw new KiokuError('BAD_USAGE', `the new text for ${file} is empty; nothing was written`, {
      path: file,
      hint: 'pass the whole new text (read the current one first with `kioku project-memory read`); to remove the project memory, delete the file',
    });
  }
  const cleaned = await cleanNotesText(given);
  const usage = measureProjectMemory(cleaned.text);
  if (usage.over) throw projectMemoryLimitError(file, usage);
  const created = !fs.existsSync(file);
  // A project file: keep the mode of an existing one; a new one gets the usual 0644 of a repo file.
  writeFileAtomicSync(file, cleaned.text, created ? { mode: 0o644, mkdir: false } : { mkdir: false });
  return { project, path: file, usage, created, changedByCleaning: cleaned.changed, warnings: cleaned.warnings };
}
