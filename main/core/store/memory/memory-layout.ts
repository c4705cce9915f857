import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { ALL_CATEGORIES, type MemoryCategory, type MemoryLoadProblem, type StoredMemory } from '../../../../common/memory.js';
import { explainInvalidRoleId } from '../../../../common/role-id.js';
import { isTempFileName, PRIVATE_DIR_MODE } from '../../platform/fs/atomic-write.js';
import { joinPlain } from '../../platform/fs/plain-join.js';
import { parseMemory } from './memory-file.js';

/**
 * The memory folder of a role (MEM-1). The ID is checked here, at the one place that turns an
 * ID into a path, so no caller can build `~/.memory/../x` by accident.
 */
export function roleMemoryDir(memoryHome: string, roleId: string): string {
  const problem = explainInvalidRoleId(roleId);
  if (problem) throw new KiokuError('INVALID_ID', problem, { hint: 'list the roles with `kioku role list`' });
  return joinPlain(memoryHome, roleId);
}

export function categoryDir(memoryHome: string, roleId: string, category: MemoryCategory): string {
  return joinPlain(roleMemoryDir(memoryHome, roleId), category);
}

export function memoryLockFile(memoryHome: string, roleId: string): string {
  return joinPlain(roleMemoryDir(memoryHome, roleId), '.memory.lock');
}

/** Create inbox/, the six categories and archive/ (MEM-1). Idempotent. */
export function ensureRoleMemoryDirs(memoryHome: string, roleId: string): string {
  const dir = roleMemoryDir(memoryHome, roleId);
  const mode = PRIVATE_DIR_MODE;
  for (const category of ALL_CATEGORIES) fs.mkdirSync(path.join(dir, category), { recursive: true, mode });
  fs.mkdirSync(path.join(dir, 'archive', 'raw'), { recursive: true, mode });
  fs.mkdirSync(path.join(dir, 'archive', 'forgotten'), { recursive: true, mode });
  return dir;
}

export interface MemoryFileRef {
  category: MemoryCategory;
  path: string;
}

/** Every memory file of a role (or of some of its folders), category by category, in name order (stable for tests). */
export function listMemoryFiles(
  memoryHome: string,
  roleId: string,
  categories: readonly MemoryCategory[] = ALL_CATEGORIES,
): MemoryFileRef[] {
  const dir = roleMemoryDir(memoryHome, roleId);
  const refs: MemoryFileRef[] = [];
  for (const category of categories) {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(dir, category));
    } catch {
      continue;
    }
    names.sort();
    for (const name of names) {
      if (!name.endsWith('.md') || name.startsWith('.') || isTempFileName(name)) continue;
      refs.push({ category, path: path.join(dir, category, name) });
    }
  }
  return refs;
}

/**
 * The most a memory file may hold (issue 14). A memory is a summary and a few paragraphs; what
 * Kioku writes is kilobytes. A file of a hundred megabytes (a log pasted into the folder, a hostile
 * sync) was read, parsed, indexed and segmented whole by every command and ran recall out of heap.
 * A file above this is reported and skipped like any unreadable one — never cut or changed.
 */
export const MAX_MEMORY_FILE_BYTES = 1024 * 1024;

/**
 * A memory file's text: its size checked (from `size`, before anything is read) and decoded as
 * UTF-8. Throws an Error naming what is wrong; file-system errors pass through as they are.
 */
export function readMemoryText(file: string, size: number): string {
  if (size > MAX_MEMORY_FILE_BYTES) {
    const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;
    throw new Error(
      `the file is ${mb(size)}, more than a memory file may be (${mb(MAX_MEMORY_FILE_BYTES)}); split it into smaller memories or move it out of the memory folder`,
    );
  }
  const bytes = fs.readFileSync(file);
  // isUtf8 is Node's native check, a fraction of a fatal TextDecoder's cost over 10,000 files;
  // the byte-order mark is dropped as the decoder dropped it.
  if (!isUtf8(bytes)) throw new Error('the file is not UTF-8 text');
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** What a reader that keeps derived data (the prepared load) learns of each file it reads. */
export type MemoryFileSeen = (ref: MemoryFileRef, stat: fs.Stats, text: string | undefined) => void;

/** Read one memory file; throws an Error naming what is wrong with it. */
export function readMemoryFile(ref: MemoryFileRef, roleId: string, stat?: fs.Stats, seen?: MemoryFileSeen): StoredMemory {
  const known = stat ?? fs.statSync(ref.path);
  let text: string | undefined;
  try {
    text = readMemoryText(ref.path, known.size);
  } finally {
    // The stat was taken before the read: a change during the read leaves a stamp that no longer matches.
    seen?.(ref, known, text);
  }
  const memory = parseMemory(text, {
    folderCategory: ref.category,
    fileId: path.basename(ref.path, '.md'),
    fileTime: known.mtime.toISOString(),
  });
  return { ...memory, role: roleId, path: ref.path };
}

export interface LoadRoleMemoriesOptions {
  /** Only these folders (default: all of them, inbox first). */
  categories?: readonly MemoryCategory[];
  /** Told of every file read, with the stat taken before reading it (text undefined when `cached` had it). */
  seen?: MemoryFileSeen;
  /** The memory as parsed before, when the file is as it was then (parsed-memories-file.ts): not read again. */
  cached?: (ref: MemoryFileRef, stat: fs.Stats) => StoredMemory | undefined;
}

/** Load every memory of a role; a corrupt file is reported and the others still load. */
export function loadRoleMemories(
  memoryHome: string,
  roleId: string,
  options: LoadRoleMemoriesOptions = {},
): { memories: StoredMemory[]; problems: MemoryLoadProblem[] } {
  const memories: StoredMemory[] = [];
  const problems: MemoryLoadProblem[] = [];
  const { seen, cached } = options;
  for (const ref of listMemoryFiles(memoryHome, roleId, options.categories)) {
    try {
      const stat = cached ? fs.statSync(ref.path) : undefined;
      const parsed = stat && cached?.(ref, stat);
      if (parsed) seen?.(ref, stat, undefined);
      memories.push(parsed || readMemoryFile(ref, roleId, stat, seen));
    } catch (error) {
      problems.push({ path: ref.path, message: (error as Error).message });
    }
  }
  return { memories, problems };
}

/** Role IDs that have a memory folder (valid IDs only; other folders are not roles). */
export function listMemoryRoles(memoryHome: string): string[] {
  try {
    return fs
      .readdirSync(memoryHome, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && explainInvalidRoleId(entry.name) === undefined)
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
