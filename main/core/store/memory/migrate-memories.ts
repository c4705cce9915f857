import fs from 'node:fs';
import path from 'node:path';
import type { MemoryLoadProblem } from '../../../../common/memory.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { acquireLock } from '../../platform/fs/file-lock.js';
import { MEMORY_KEYS, parseMemory, serializeMemory } from './memory-file.js';
import { listMemoryFiles, memoryLockFile, readMemoryText, type MemoryFileRef } from './memory-layout.js';

/**
 * PM-6, seed 001 §舊檔要升格式: bring old memory files up to MEM-2 in place. A file missing any
 * MEM-2 field gets its frontmatter rewritten with every field present (the values reading
 * already gives it: parseMemory's defaults) and its unknown keys kept; the body after the
 * frontmatter is kept byte for byte. Idempotent: a migrated file has every field, so a second
 * run finds nothing to do. Files that already have every field are not touched at all.
 */
export interface MigrateRoleResult {
  role: string;
  files: number;
  /** Files rewritten (dry run: that would be rewritten). */
  changed: number;
  paths: string[];
  problems: MemoryLoadProblem[];
}

export interface MigrateResult {
  roles: MigrateRoleResult[];
  dryRun: boolean;
}

const FENCE = /^\uFEFF?---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** The file's new text, or undefined when it already has every MEM-2 field. */
export function migratedText(text: string, ref: MemoryFileRef, mtime: Date): string | undefined {
  const { data, hasFrontmatter } = parseFrontmatter(text);
  if (MEMORY_KEYS.every((key) => Object.hasOwn(data, key))) return undefined;
  const memory = parseMemory(text, {
    folderCategory: ref.category,
    fileId: path.basename(ref.path, '.md'),
    // The same fallback reading uses (readMemoryFile), so migrating changes no value a reader saw.
    fileTime: mtime.toISOString(),
  });
  const frontmatter = serializeMemory({ ...memory, body: '' });
  const fence = hasFrontmatter ? FENCE.exec(text) : null;
  const body = fence ? text.slice(fence[0].length) : text.replace(/^\uFEFF/, '');
  return frontmatter + body.replace(/^\r?\n/, '');
}

function migrateRole(config: KiokuConfig, role: string, dryRun: boolean): MigrateRoleResult {
  const result: MigrateRoleResult = { role, files: 0, changed: 0, paths: [], problems: [] };
  for (const ref of listMemoryFiles(config.paths.memoryHome, role)) {
    result.files += 1;
    const leaveAlone = (message: string) => result.problems.push({ path: ref.path, message: `${message}; left as it is` });
    let text: string;
    try {
      text = readMemoryText(ref.path, fs.statSync(ref.path).size);
    } catch (error) {
      leaveAlone((error as Error).message);
      continue;
    }
    let next: string | undefined;
    try {
      next = migratedText(text, ref, fs.statSync(ref.path).mtime);
    } catch (error) {
      leaveAlone((error as Error).message);
      continue;
    }
    if (next === undefined) continue;
    if (!dryRun) writeFileAtomicSync(ref.path, next);
    result.changed += 1;
    result.paths.push(ref.path);
  }
  return result;
}

/** Migrate the given roles one after another, each under its memory lock (none on a dry run). */
export function migrateMemories(config: KiokuConfig, roles: readonly string[], options: { dryRun?: boolean } = {}): MigrateResult {
  const dryRun = options.dryRun ?? false;
  const results = roles.map((role) => {
    if (dryRun) return migrateRole(config, role, true);
    const lock = acquireLock(memoryLockFile(config.paths.memoryHome, role), { purpose: 'migrate memories', waitMs: 10_000 });
    try {
      return migrateRole(config, role, false);
    } finally {
      lock.release();
    }
  });
  return { roles: results, dryRun };
}
