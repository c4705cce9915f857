import path from 'node:path';
import type { Memory, MemoryCategory, MemoryLoadProblem } from '../../../../common/memory.js';
import { formatLocalIso, type Clock } from '../../platform/config/clock.js';
import { readLockInfo, tryAcquireLock, type FileLock } from '../../platform/fs/file-lock.js';
import { memoryLockFile } from '../memory/memory-layout.js';
import { rewriteMemoryFile } from '../memory/rewrite-memory.js';

/**
 * MEM-4 and PM-2: a memory that recall actually returned was replayed — `hits + 1`,
 * `last_replayed = now`, `strength + 8` (capped at 100) — written into its file, which stays
 * the truth. Under the role's memory lock, so a consolidation rewriting the same files never
 * loses these counts or has its work overwritten.
 */
export const RECALL_STRENGTH_GAIN = 8;

/** How long recall waits for the memory lock before giving up on the write-back (never on recall). */
const LOCK_WAIT_MS = 100;

export interface WriteBackTarget {
  path: string;
  category: MemoryCategory;
  /** The file's mtime when it was indexed: the `created` fallback, as readMemoryFile uses it. */
  mtimeMs: number;
}

export type WriteBackOutcome =
  { status: 'written'; written: Map<string, Memory>; problems: MemoryLoadProblem[] } | { status: 'locked'; holder: string };

/** The counts a replay changes, and what they become: recall shows these before it writes them. */
export type ReplayCounts = Pick<Memory, 'hits' | 'last_replayed' | 'strength'>;

export function replayedCounts(counts: ReplayCounts, now: string): ReplayCounts {
  return { hits: counts.hits + 1, last_replayed: now, strength: Math.min(100, counts.strength + RECALL_STRENGTH_GAIN) };
}

export function replayed(memory: Memory, now: string): Memory {
  return { ...memory, ...replayedCounts(memory, now) };
}

export type WriteBackClaim = { status: 'claimed'; lock: FileLock } | { status: 'locked'; holder: string };

/**
 * Take the role's memory lock for a write-back (waiting up to LOCK_WAIT_MS): taken before recall
 * answers, so the answer can say whether this recall will be counted, and the files written
 * after it is given.
 */
export function claimWriteBack(memoryHome: string, role: string): WriteBackClaim {
  const lockFile = memoryLockFile(memoryHome, role);
  const lock = tryAcquireLock(lockFile, { purpose: 'recall write-back', waitMs: LOCK_WAIT_MS });
  if (lock) return { status: 'claimed', lock };
  const info = readLockInfo(lockFile);
  return { status: 'locked', holder: info ? `process ${info.pid} (${info.purpose})` : 'another process' };
}

/**
 * Write the replay into each file, under `claimed` (released here) or a lock taken now. `now`
 * is the `last_replayed` text; by default the clock's time.
 */
export function writeBackRecall(
  memoryHome: string,
  role: string,
  targets: WriteBackTarget[],
  clock: Clock,
  claimed?: FileLock,
  nowText?: string,
): WriteBackOutcome {
  let lock = claimed;
  if (!lock) {
    const claim = claimWriteBack(memoryHome, role);
    if (claim.status === 'locked') return claim;
    lock = claim.lock;
  }
  const now = nowText ?? formatLocalIso(clock.now());
  const written = new Map<string, Memory>();
  const problems: MemoryLoadProblem[] = [];
  try {
    for (const target of targets) {
      try {
        const context = {
          folderCategory: target.category,
          fileId: path.basename(target.path, '.md'),
          fileTime: new Date(target.mtimeMs).toISOString(),
        };
        const next = rewriteMemoryFile(target.path, context, (memory) => replayed(memory, now));
        if (next) written.set(target.path, next);
      } catch (error) {
        problems.push({ path: target.path, message: `hits not written back: ${(error as Error).message}` });
      }
    }
  } finally {
    lock.release();
  }
  return { status: 'written', written, problems };
}
