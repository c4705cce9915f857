import fs from 'node:fs';
import type Database from 'better-sqlite3';
import type { MemoryLoadProblem } from '../../../../common/memory.js';
import { listMemoryRoles, readMemoryFile } from '../memory/memory-layout.js';
import {
  listFolder,
  listingMatchesIndex,
  locateMemoryFile,
  planFolder,
  planRoleSync,
  type FileToRead,
  type FolderListing,
  type FolderPlan,
  type MemoryFileLocation,
} from './folder-diff.js';
import { clearFolderRows, forgetBrokenFile, recordBrokenFile, setFolderMtime, storedFolderMtime } from './folder-rows.js';
import { decideFullCheck, recordFullCheck, type FullCheckPolicy } from './full-check.js';
import { clearMemoryRows, deleteMemoryRow, rowidForPath, toMemoryRow, toSearchText, writeMemoryRow } from './memory-rows.js';
import { buildPostings } from './word-postings-upkeep.js';

/**
 * Bringing the index in line with the memory files: an incremental sync re-reads only what a
 * folder diff found changed; a full rebuild clears a role's rows and reads everything.
 */
export type ProgressCallback = (done: number, total: number) => void;

export interface SyncResult {
  /** Files read and written to the index. */
  indexed: number;
  /** Rows dropped because their file is gone. */
  removed: number;
  /** Files that could not be read as memories (absolute paths); the others are indexed. */
  problems: MemoryLoadProblem[];
}

export interface SyncTarget {
  db: Database.Database;
  memoryHome: string;
  /** Called before the first write: a read-only index reopens for writing (memory-index.ts). */
  writable?(): void;
}

/**
 * Files per transaction in an incremental sync. Each batch commits on its own so that an
 * interrupted first build (100k files) keeps what it did and the next sync carries on: a
 * folder's mtime is recorded only in the batch that finishes the folder.
 */
const BATCH_SIZE = 2000;

// Every write transaction here is BEGIN IMMEDIATE: one that starts by reading and then writes
// fails at once with SQLITE_BUSY_SNAPSHOT when another process wrote in between, instead of
// waiting for busy_timeout like a transaction that takes the write lock first.

function isGone(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

type ReadOutcome = 'indexed' | 'broken' | 'gone';

function readOne(db: Database.Database, role: string, file: FileToRead, problems: MemoryLoadProblem[]): ReadOutcome {
  try {
    const memory = readMemoryFile({ category: file.category, path: file.absPath }, role, file.stat);
    writeMemoryRow(db, toMemoryRow(memory, file.relPath, file.stat), toSearchText(memory), file.existingRowid);
    return 'indexed';
  } catch (error) {
    if (file.existingRowid !== undefined) deleteMemoryRow(db, file.existingRowid);
    if (isGone(error)) return 'gone'; // removed after the listing; the folder's next diff settles it
    const message = (error as Error).message;
    recordBrokenFile(db, { role, category: file.category, path: file.relPath, mtimeMs: file.stat.mtimeMs, size: file.stat.size, message });
    problems.push({ path: file.absPath, message });
    return 'broken';
  }
}

function count(result: SyncResult, outcome: ReadOutcome, file: FileToRead): void {
  if (outcome === 'indexed') result.indexed += 1;
  else if (outcome === 'gone' && file.existingRowid !== undefined) result.removed += 1;
}

function addResult(into: SyncResult, more: SyncResult): void {
  into.indexed += more.indexed;
  into.removed += more.removed;
  into.problems.push(...more.problems);
}

function applyFolderCleanup(db: Database.Database, plan: FolderPlan): number {
  for (const rowid of plan.removedRowids) deleteMemoryRow(db, rowid);
  for (const relPath of plan.staleBrokenPaths) forgetBrokenFile(db, relPath);
  return plan.removedRowids.length;
}

/** Apply folder plans in batches, reporting progress over the files to read. */
export function applyFolderPlans(db: Database.Database, plans: FolderPlan[], onProgress?: ProgressCallback): SyncResult {
  const total = plans.reduce((sum, plan) => sum + plan.toRead.length, 0);
  const result: SyncResult = { indexed: 0, removed: 0, problems: [] };
  let done = 0;
  onProgress?.(0, total);
  for (const plan of plans) {
    let next = 0;
    do {
      const batch = plan.toRead.slice(next, next + BATCH_SIZE);
      const first = next === 0;
      next += batch.length;
      const last = next >= plan.toRead.length;
      db.transaction(() => {
        if (first) result.removed += applyFolderCleanup(db, plan);
        for (const file of batch) count(result, readOne(db, plan.role, file, result.problems), file);
        if (last) setFolderMtime(db, plan.role, plan.category, plan.dirMtimeMs);
      }).immediate();
      done += batch.length;
      if (batch.length) onProgress?.(done, total);
    } while (next < plan.toRead.length);
  }
  return result;
}

/**
 * Re-read the given files (the watcher's events, recall's own write-back, a hit whose file
 * changed in place). A path that is not a memory file is ignored; a file that is gone loses its
 * row. `recordFolderMtimes`: the caller believes these files are every change in their folders
 * (it made them, or a watcher saw them all), so the folders are marked fresh and the next
 * recall does not diff them again. Believing is not enough: another process may have added or
 * removed a file in the same folder meanwhile, and its folder mtime would then be recorded as
 * seen. So each folder's file names are compared with its rows, and a folder that differs is
 * diffed properly.
 */
export function syncPaths(target: SyncTarget, absPaths: Iterable<string>, options: { recordFolderMtimes: boolean }): SyncResult {
  target.writable?.();
  const { db, memoryHome } = target;
  const result: SyncResult = { indexed: 0, removed: 0, problems: [] };
  const files = new Map<string, MemoryFileLocation>();
  for (const absPath of absPaths) {
    const location = locateMemoryFile(memoryHome, absPath);
    if (location) files.set(absPath, location);
  }
  // Listed before the write lock is taken (a readdir of a large folder takes milliseconds), and
  // after the caller's own changes, which are all made by now.
  const listings = options.recordFolderMtimes ? folderListings(target, files.values()) : [];
  db.transaction(() => {
    for (const [absPath, location] of files) {
      const existingRowid = rowidForPath(db, location.relPath);
      forgetBrokenFile(db, location.relPath);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(absPath);
      } catch {
        if (existingRowid === undefined) continue;
        deleteMemoryRow(db, existingRowid);
        result.removed += 1;
        continue;
      }
      const file: FileToRead = { ...location, absPath, stat, existingRowid };
      count(result, readOne(db, location.role, file, result.problems), file);
    }
    for (const listing of listings) {
      const { role, category, dirMtimeMs } = listing;
      if (storedFolderMtime(db, role, category) === undefined) continue; // a rebuild started meanwhile
      if (listingMatchesIndex(db, listing)) setFolderMtime(db, role, category, dirMtimeMs);
      else addResult(result, applyFolderPlans(db, [planFolder(db, memoryHome, role, category, dirMtimeMs)]));
    }
  }).immediate();
  return result;
}

/**
 * The folders of these files that may be marked fresh, listed. Only a folder diffed before
 * qualifies: on a new (or rebuilt) index these few files are not the whole folder, and the
 * next sync diffs it anyway. A file added after a listing leaves its folder looking changed to
 * the next sync, unless it lands within the same timestamp tick as the mtime read: a window of
 * milliseconds that the full check (full-check.ts) closes.
 */
function folderListings(target: SyncTarget, files: Iterable<MemoryFileLocation>): FolderListing[] {
  const folders = new Map<string, MemoryFileLocation>();
  for (const file of files) folders.set(`${file.role}/${file.category}`, file);
  return [...folders.values()]
    .filter(({ role, category }) => storedFolderMtime(target.db, role, category) !== undefined)
    .map(({ role, category }) => listFolder(target.memoryHome, role, category));
}

/**
 * Re-read what changed in a role's files since the last sync (MEM-4 freshness): folders whose
 * mtime changed, and every file when a full check is due (full-check.ts), which is how edits
 * made in place are found without the watcher.
 */
export function syncRole(target: SyncTarget, role: string, onProgress?: ProgressCallback, fullCheck?: FullCheckPolicy): SyncResult {
  const decision = decideFullCheck(target.db, role, fullCheck);
  const plans = planRoleSync(target.db, target.memoryHome, role, decision.statEveryFile);
  // A sync that found nothing to apply writes nothing, so a read-only index (a CLI recall) stays
  // read-only; otherwise it is reopened for writing here, and the plans, made outside any write
  // transaction as always, are applied as they are.
  if (plans.length || decision.stampMs !== undefined) target.writable?.();
  const result = applyFolderPlans(target.db, plans, onProgress);
  // Only after the plans are applied: an interrupted check (a busy index) is simply due again.
  if (decision.stampMs !== undefined) recordFullCheck(target.db, role, decision.stampMs);
  return result;
}

/**
 * Rebuild the index from the files (`kioku memory reindex`): the given roles, or 'all' (which
 * also drops rows of roles whose folder is gone). One outer transaction: other processes keep
 * reading the old rows until the new ones are complete, and an interrupted rebuild leaves the
 * old index as it was. The batches inside become savepoints.
 */
export function rebuildIndex(target: SyncTarget, roles: string[] | 'all', onProgress?: ProgressCallback): SyncResult {
  target.writable?.();
  const { db, memoryHome } = target;
  const startedMs = Date.now();
  return db
    .transaction(() => {
      if (roles === 'all') {
        clearMemoryRows(db);
        clearFolderRows(db);
      } else {
        for (const role of roles) {
          clearMemoryRows(db, role);
          clearFolderRows(db, role);
        }
      }
      const rebuilt = roles === 'all' ? listMemoryRoles(memoryHome) : roles;
      const result = applyFolderPlans(
        db,
        rebuilt.flatMap((role) => planRoleSync(db, memoryHome, role, true)),
        onProgress,
      );
      // Every file was just read: that is a full check (full-check.ts) of these roles.
      for (const role of rebuilt) recordFullCheck(db, role, startedMs);
      // In the same transaction: the postings match the rows the rebuild leaves.
      buildPostings(db);
      return result;
    })
    .immediate();
}
