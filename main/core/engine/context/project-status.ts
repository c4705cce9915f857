import path from 'node:path';
import type { KiokuConfig } from '../../platform/config/config.js';
import { readProjectMemory } from './context-files.js';
import { PROJECT_MEMORY_MAX_CHARS, countProjectMemoryChars } from '../../store/notes/notes-limits.js';
import { loadRoleMemories } from '../../store/memory/memory-layout.js';
import { waitingConventions } from './project-conventions.js';
import { projectMemoryFolder, sessionProject } from './session-project.js';
import { groupDigits } from '../../platform/text/group-digits.js';

/**
 * `kioku status` for the folder it runs in (issue 12): the project, its MEMORY.md (DSH-2) and
 * how many of the role's conventions of that project wait for room in it — the other place,
 * besides the session note, where the user hears that nothing was cut.
 */
export interface ProjectStatus {
  project: string;
  memoryFile: string;
  exists: boolean;
  chars: number;
  maxChars: number;
  /** Conventions of this project not yet in MEMORY.md (consolidated, offered after each sleep). */
  waiting: number;
  /** Of those, ones that would not fit now (what a sleep leaves waiting). */
  overCap: boolean;
}

export function projectStatus(config: KiokuConfig, roleId: string | null, cwd: string): ProjectStatus | null {
  const project = sessionProject(config.env, cwd);
  if (!project) return null;
  const folder = projectMemoryFolder(cwd, project) ?? project;
  const file = readProjectMemory(folder);
  const chars = file ? countProjectMemoryChars(file.text) : 0;
  let waiting: readonly { summary: string }[] = [];
  if (roleId) {
    try {
      waiting = waitingConventions(loadRoleMemories(config.paths.memoryHome, roleId).memories, project);
    } catch {
      waiting = [];
    }
  }
  const lines = waiting.map((memory) => `- ${memory.summary}`).join('\n');
  const overCap = Boolean(file) && waiting.length > 0 && countProjectMemoryChars(`${file!.text}\n${lines}\n`) > PROJECT_MEMORY_MAX_CHARS;
  return {
    project,
    memoryFile: path.join(folder, 'MEMORY.md'),
    exists: Boolean(file),
    chars,
    maxChars: PROJECT_MEMORY_MAX_CHARS,
    waiting: waiting.length,
    overCap,
  };
}

/** The status line; a warning when conventions wait for room. */
export function projectStatusLines(status: ProjectStatus | null | undefined): { line?: string; warning?: string } {
  if (!status) return {};
  const usage = status.exists ? `${groupDigits(status.chars)}/${groupDigits(status.maxChars)} 字元` : 'none (never created unasked)';
  const line = `專案 project: ${status.project} — MEMORY.md ${usage}${status.waiting ? `; ${status.waiting} convention(s) not in it yet` : ''}`;
  if (!status.overCap) return { line };
  return {
    line,
    warning: `${status.waiting} convention(s) of ${status.project} wait: ${status.memoryFile} would pass ${status.maxChars} characters, so nothing was written or cut; make room (or move long notes to the journal) and the next sleep adds them`,
  };
}
