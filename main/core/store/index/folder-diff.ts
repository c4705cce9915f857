import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { ALL_CATEGORIES, isCategory, type MemoryCategory } from '../../../../common/memory.js';
import { explainInvalidRoleId } from '../../../../common/role-id.js';
import { isTempFileName } from '../../platform/fs/atomic-write.js';
import { joinPlain } from '../../platform/fs/plain-join.js';
import { categoryDir, roleMemoryDir } from '../memory/memory-layout.js';
import { indexedCountIn, indexedFilesIn, indexedPathsIn, storedFolderMtime } from './folder-rows.js';

/**
 * Deciding what a sync must re-read, from `stat` alone: a category folder whose mtime is
 * unchanged had nothing added, removed or renamed into it (atomic writes rename, so Kioku's
 * own rewrites count); a changed folder is diffed file by file on mtime and size. An edit in
 * place leaves the folder mtime alone, so from time to time every folder is diffed anyway
 * (`statEveryFile`, decided in full-check.ts).
 */
export interface FileToRead {
  category: MemoryCategory;
  /** Relative to the memory home, `/`-separated. */
  relPath: string;
  absPath: string;
  stat: fs.Stats;
  existingRowid: number | undefined;
}

export interface FolderPlan {
  role: string;
  category: MemoryCategory;
  /** The folder's mtime seen before it was listed; recorded once the plan is applied. */
  dirMtimeMs: number;
  toRead: FileToRead[];
  /** Rows whose file is gone. */
  removedRowids: number[];
  /** Broken-file records whose file is gone or changed. */
  staleBrokenPaths: string[];
}

/** A folder that does not exist is recorded with this mtime, so it is not listed every time. */
const MISSING_FOLDER_MTIME = -1;

export function relativeMemoryPath(role: string, category: MemoryCategory, name: string): string {
  return `${role}/${category}/${name}`;
}

export function absoluteMemoryPath(memoryHome: string, relPath: string): string {
  return joinPlain(memoryHome, relPath);
}

export interface MemoryFileLocation {
  role: string;
  category: MemoryCategory;
  relPath: string;
}

/** Where a file sits in the memory home, or undefined when it is not a memory file (archive, state, notes). */
export function locateMemoryFile(memoryHome: string, absPath: string): MemoryFileLocation | undefined {
  const parts = path.relative(memoryHome, absPath).split(path.sep);
  if (parts.length !== 3) return undefined;
  const [role, category, name] = parts as [string, string, string];
  if (explainInvalidRoleId(role) !== undefined || !isCategory(category) || !isMemoryFileName(name)) return undefined;
  return { role, category, relPath: relativeMemoryPath(role, category, name) };
}

export function folderMtime(dir: string): number {
  try {
    return fs.statSync(dir).mtimeMs;
  } catch {
    return MISSING_FOLDER_MTIME;
  }
}

/** The same rule as listMemoryFiles (memory-layout.ts): `.md`, not hidden, not our temp files. */
export function isMemoryFileName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.') && !isTempFileName(name);
}

function memoryFileNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter(isMemoryFileName);
  } catch {
    return [];
  }
}

/** Diff one folder file by file against its rows; `dirMtimeMs` must be read before this lists it. */
export function planFolder(
  db: Database.Database,
  memoryHome: string,
  role: string,
  category: MemoryCategory,
  dirMtimeMs: number,
): FolderPlan {
  const dir = categoryDir(memoryHome, role, category);
  const known = indexedFilesIn(db, role, category);
  const plan: FolderPlan = { role, category, dirMtimeMs, toRead: [], removedRowids: [], staleBrokenPaths: [] };
  for (const name of memoryFileNames(dir).sort()) {
    const absPath = joinPlain(dir, name);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absPath);
    } catch {
      continue; // removed while we listed: it is treated as gone below
    }
    if (!stat.isFile()) continue;
    const relPath = relativeMemoryPath(role, category, name);
    const indexed = known.get(relPath);
    known.delete(relPath);
    if (indexed && indexed.mtimeMs === stat.mtimeMs && indexed.size === stat.size) continue;
    if (indexed && indexed.rowid === undefined) plan.staleBrokenPaths.push(relPath);
    plan.toRead.push({ category, relPath, absPath, stat, existingRowid: indexed?.rowid });
  }
  for (const [relPath, gone] of known) {
    if (gone.rowid === undefined) plan.staleBrokenPaths.push(relPath);
    else plan.removedRowids.push(gone.rowid);
  }
  return plan;
}

function isEmptyPlan(plan: FolderPlan): boolean {
  return !plan.toRead.length && !plan.removedRowids.length && !plan.staleBrokenPaths.length;
}

/**
 * Plans for the folders of a role that changed since their last diff; with `statEveryFile`,
 * for every folder, so that in-place edits are found too. The mtime is read before the listing
 * so that a file added during the listing leaves the folder looking changed next time.
 */
export function planRoleSync(db: Database.Database, memoryHome: string, role: string, statEveryFile = false): FolderPlan[] {
  const roleDir = roleMemoryDir(memoryHome, role);
  const plans: FolderPlan[] = [];
  for (const category of ALL_CATEGORIES) {
    const dirMtimeMs = folderMtime(joinPlain(roleDir, category));
    const unchanged = storedFolderMtime(db, role, category) === dirMtimeMs;
    if (unchanged && !statEveryFile) continue;
    const plan = planFolder(db, memoryHome, role, category, dirMtimeMs);
    // Nothing to apply: leaving it out keeps a sync that found nothing free of writes (and of
    // the index's write lock), which small roles rely on since they are checked every recall.
    if (unchanged && isEmptyPlan(plan)) continue;
    plans.push(plan);
  }
  return plans;
}

/** A folder's file names, and its mtime read just before they were listed. */
export interface FolderListing {
  role: string;
  category: MemoryCategory;
  dirMtimeMs: number;
  names: string[];
}

/**
 * One readdir, no stat per file: about 10 ms for a 14k-file folder (100k memories). The mtime
 * is read first, so a file added after the listing leaves the folder looking changed.
 */
export function listFolder(memoryHome: string, role: string, category: MemoryCategory): FolderListing {
  const dir = categoryDir(memoryHome, role, category);
  const dirMtimeMs = folderMtime(dir);
  return { role, category, dirMtimeMs, names: memoryFileNames(dir) };
}

/**
 * Whether a listing names exactly the files the index has rows for. Equal names mean nothing
 * was added, removed or renamed since the rows were written; a file replaced under the same
 * name is left to the stat of recall's hits and to the full check (full-check.ts).
 */
export function listingMatchesIndex(db: Database.Database, listing: FolderListing): boolean {
  const { role, category, names } = listing;
  // Counts first (index-only): a file added or removed alone shows here without building sets.
  if (names.length !== indexedCountIn(db, role, category)) return false;
  // Equal counts and every indexed path present on disk: the two sets are the same.
  const onDisk = new Set(names);
  const prefixLength = relativeMemoryPath(role, category, '').length;
  return indexedPathsIn(db, role, category).every((relPath) => onDisk.has(relPath.slice(prefixLength)));
}
