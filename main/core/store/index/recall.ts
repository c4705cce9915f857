import fs from 'node:fs';
import type { MemoryCategory, MemoryLoadProblem, MemoryType } from '../../../../common/memory.js';
import { formatLocalIso, type Clock } from '../../platform/config/clock.js';
import { traceMark } from '../../platform/config/trace.js';
import { isSessionGrant } from '../memory/grant-scope.js';
import { expiryTime } from '../memory/memory-expiry.js';
import { roleMemoryDir } from '../memory/memory-layout.js';
import { buildMatchQueries, type MatchQueries } from './cjk-segmenter.js';
import { absoluteMemoryPath } from './folder-diff.js';
import type { FullCheckPolicy } from './full-check.js';
import { isBusyError } from './index-db.js';
import { syncPaths, syncRole, type ProgressCallback, type SyncResult } from './index-sync.js';
import { withIndexRecovery, type MemoryIndex } from './memory-index.js';
import { searchMemories, type RankedRow } from './recall-query.js';
import { DEFAULT_RECALL_LIMIT } from './recall-limits.js';
import { claimWriteBack, replayedCounts, writeBackRecall, type ReplayCounts, type WriteBackTarget } from './recall-write-back.js';
import { orderForProject, widenedLimit, type RecallProject } from './recall-project.js';
import { queuedReplays, queueReplaysOf, replayQueueFile, withReplays } from './replay-queue.js';

/** MEM-4 recall from the index, with the PM-2 write-back of what was returned. */
export interface RecallOptions {
  role: string;
  query: string;
  /** How many memories at most (default 5). */
  limit?: number;
  clock: Clock;
  /**
   * Write hits, last_replayed and strength back into the files (default true), or `'queue'` them
   * for later (replay-queue.ts: a recall without the daemon, whose process waits for its exit).
   */
  writeBack?: boolean | 'queue';
  /** Progress of reading changed files into the index (all of them on first use). */
  onIndexProgress?: ProgressCallback;
  /** When to stat every file for in-place edits (full-check.ts); the defaults suit everyone but tests. */
  fullCheck?: FullCheckPolicy;
  /** The caller's project (git top level of its cwd): its memories first, other projects' conventions last and labelled (issue 12). */
  project?: string;
  /** The `last_replayed` text written back (default: the clock's time in this process's zone); a daemon answering a CLI uses the CLI's. */
  replayedAt?: string;
}

export interface RecalledMemory {
  id: string;
  role: string;
  summary: string;
  category: MemoryCategory;
  memory_type: MemoryType;
  priority: number;
  tags: string[];
  /** Absolute path of the memory file. */
  path: string;
  score: number;
  hits: number;
  strength: number;
  last_replayed: string;
  /**
   * MEM-8: a temporary grant still within its time is marked, never passed off as a standing
   * rule: `session` — valid only in the session it was granted in (issue 12), `until` — a date,
   * `condition` — a condition text. Expired ones are not returned at all.
   */
  grant?: { kind: 'session' | 'until' | 'condition'; expires: string };
  /** Which project the memory belongs to, when it names one (issue 12, projects/recall-project.ts). */
  project?: RecallProject;
}

/**
 * `written`: counted — written into the files, or queued to be (replay-queue.ts). One word for
 * both, on the wire too: a CLI of an earlier version rejects a status it does not know and would
 * recall (and count) a second time.
 */
export type WriteBackStatus = 'written' | 'disabled' | 'nothing-returned' | 'skipped-locked';

export interface RecallResult {
  memories: RecalledMemory[];
  /** Memory files that could not be read (skipped, never fatal). */
  problems: MemoryLoadProblem[];
  writeBack: WriteBackStatus;
}

export { DEFAULT_RECALL_LIMIT };

/**
 * Index upkeep that may wait on another process (a `reindex` holds the write lock for
 * seconds): when the wait times out, recall goes on with the index as it is.
 */
function upkeep(index: MemoryIndex, what: string, run: () => SyncResult): MemoryLoadProblem[] {
  try {
    return run().problems;
  } catch (error) {
    if (!isBusyError(error)) throw error;
    index.logger.warn('recall', `${what} skipped: the index is busy (another process is writing it); results may be a little stale`);
    return [];
  }
}

/** Hits whose file changed in place (an editor that does not rename) or vanished since indexing. */
function changedFiles(index: MemoryIndex, rows: RankedRow[]): string[] {
  return rows
    .map((row) => absoluteMemoryPath(index.memoryHome, row.path))
    .filter((file, i) => {
      try {
        const stat = fs.statSync(file);
        return stat.mtimeMs !== rows[i]!.mtime_ms || stat.size !== rows[i]!.size;
      } catch {
        return true;
      }
    });
}

interface Found {
  rows: RankedRow[];
  /** Per row, its project (issue 12). */
  projects: RecallProject[];
  problems: MemoryLoadProblem[];
}

function search(index: MemoryIndex, options: RecallOptions, match: MatchQueries): Found {
  const limit = Math.max(1, Math.floor(options.limit ?? DEFAULT_RECALL_LIMIT));
  const wide = widenedLimit(limit, options.project);
  const nowMs = options.clock.now().getTime();
  const problems = upkeep(index, 'index sync', () => syncRole(index, options.role, options.onIndexProgress, options.fullCheck));
  traceMark('index-synced');
  // Issue 12: the project's own memories first, then cut to the limit (only what is returned is written back).
  const inProject = (rows: RankedRow[]) => {
    const ordered = orderForProject(rows, options.project, limit);
    return { rows: ordered.map((entry) => entry.row), projects: ordered.map((entry) => entry.project) };
  };
  const rows = searchMemories(index.db, options.role, match, wide, nowMs);
  traceMark('ranked');
  const changed = changedFiles(index, rows);
  traceMark('hits-checked');
  if (!changed.length) return { ...inProject(rows), problems };
  problems.push(...upkeep(index, 'index refresh', () => syncPaths(index, changed, { recordFolderMtimes: false })));
  return { ...inProject(searchMemories(index.db, options.role, match, wide, nowMs)), problems };
}

function toRecalled(index: MemoryIndex, row: RankedRow, written: ReplayCounts | undefined, project?: RecallProject): RecalledMemory {
  return {
    id: row.id,
    role: row.role,
    summary: row.summary,
    category: row.category,
    memory_type: row.memory_type,
    priority: row.priority,
    tags: row.tags ? row.tags.split(', ') : [],
    path: absoluteMemoryPath(index.memoryHome, row.path),
    score: Number(row.score.toPrecision(6)),
    hits: written?.hits ?? row.hits,
    strength: written?.strength ?? row.strength,
    last_replayed: written?.last_replayed ?? row.last_replayed,
    ...(row.expires ? { grant: grantOf(row.expires) } : {}),
    ...(project?.projects.length ? { project } : {}),
  };
}

function grantOf(expires: string): NonNullable<RecalledMemory['grant']> {
  const kind = expiryTime(expires) ? 'until' : isSessionGrant({ expires }) ? 'session' : 'condition';
  return { kind, expires };
}

/**
 * A recall whose answer is ready and whose write-back is not done yet: `result` already shows
 * the counts the write-back will write (hits + 1, last_replayed, strength), so the caller can
 * answer first and write after (X-PERF: the write-back is most of a recall's time). The role's
 * memory lock is held until `writeBack()` or `release()`; call one of them, always.
 */
export interface PreparedRecall {
  result: RecallResult;
  /** Write the replay into the files and the index; the problems it met. Runs once. */
  writeBack(): MemoryLoadProblem[];
  /** Give up the write-back (the answer was not delivered): the lock is released, nothing written. */
  release(): void;
}

const nothingToWrite = (result: RecallResult): PreparedRecall => ({ result, writeBack: () => [], release: () => undefined });

/**
 * Recall a role's memories for a query. The index is brought up to date first (changed
 * folders only), so recall never misses a file Kioku or the user added. A query with nothing
 * searchable in it returns no memories.
 */
export function prepareRecall(index: MemoryIndex, options: RecallOptions): PreparedRecall {
  roleMemoryDir(index.memoryHome, options.role); // rejects a bad role ID before any work
  const match = buildMatchQueries(options.query);
  if (!match) return nothingToWrite({ memories: [], problems: [], writeBack: 'nothing-returned' });
  const { rows, projects, problems } = withIndexRecovery(index, () => search(index, options, match));
  if (options.writeBack === false)
    return nothingToWrite({
      memories: rows.map((row, i) => toRecalled(index, row, undefined, projects[i])),
      problems,
      writeBack: 'disabled',
    });
  if (!rows.length) return nothingToWrite({ memories: [], problems, writeBack: 'nothing-returned' });
  if (options.writeBack === 'queue') return queuedRecall(index, options, { rows, projects, problems });

  const claim = claimWriteBack(index.memoryHome, options.role);
  if (claim.status === 'locked') {
    index.logger.info('recall', `memory lock of ${options.role} is held by ${claim.holder}; hits not written back this time`);
    return nothingToWrite({
      memories: rows.map((row, i) => toRecalled(index, row, undefined, projects[i])),
      problems,
      writeBack: 'skipped-locked',
    });
  }
  const now = options.replayedAt ?? formatLocalIso(options.clock.now());
  const targets = writeBackTargets(index, rows);
  const memories = rows.map((row, i) => toRecalled(index, row, replayedCounts(row, now), projects[i]));
  let done = false;
  return {
    result: { memories, problems, writeBack: 'written' },
    release() {
      if (done) return;
      done = true;
      claim.lock.release();
    },
    writeBack() {
      if (done) return [];
      done = true;
      const outcome = writeBackRecall(index.memoryHome, options.role, targets, options.clock, claim.lock, now);
      if (outcome.status === 'locked') return []; // not with a claimed lock
      // Our own rewrites renamed files into their folders: index them and mark the folders fresh
      // now, or the next recall would diff those folders again. syncPaths first checks that no
      // other process added or removed a file there in the meantime (a readdir per folder).
      return [
        ...outcome.problems,
        ...upkeep(index, 'index update', () =>
          withIndexRecovery(index, () => syncPaths(index, [...outcome.written.keys()], { recordFolderMtimes: true })),
        ),
      ];
    },
  };
}

/** The files a recall's replays go into, written now or queued. */
function writeBackTargets(index: MemoryIndex, rows: readonly RankedRow[]): WriteBackTarget[] {
  return rows.map((row) => ({ path: absoluteMemoryPath(index.memoryHome, row.path), category: row.category, mtimeMs: row.mtime_ms }));
}

/**
 * The write-back queued (replay-queue.ts): no lock to wait for, and the counts shown are the
 * files' plus what is queued for them, plus this recall — what the files hold once applied.
 */
function queuedRecall(index: MemoryIndex, options: RecallOptions, { rows, projects, problems }: Found): PreparedRecall {
  const now = options.replayedAt ?? formatLocalIso(options.clock.now());
  const pending = queuedReplays(
    index.memoryHome,
    options.role,
    rows.map((row) => row.path),
  );
  const memories = rows.map((row, i) => {
    const queued = pending.get(row.path);
    const counts = queued ? withReplays(row, queued.times, queued.at) : row;
    return toRecalled(index, row, replayedCounts(counts, now), projects[i]);
  });
  let done = false;
  return {
    result: { memories, problems, writeBack: 'written' },
    release() {
      done = true;
    },
    writeBack() {
      if (done) return [];
      done = true;
      try {
        queueReplaysOf(
          index.memoryHome,
          options.role,
          now,
          rows.map((row) => [row.path, row.category, row.mtime_ms]),
        );
        return [];
      } catch (error) {
        const file = replayQueueFile(index.memoryHome, options.role);
        return [{ path: file, message: `this recall's hits were not counted: ${(error as Error).message}` }];
      }
    },
  };
}

/** Recall and write back at once (the answer waits for the files). */
export function recall(index: MemoryIndex, options: RecallOptions): RecallResult {
  const prepared = prepareRecall(index, options);
  const problems = prepared.writeBack();
  return { ...prepared.result, problems: [...prepared.result.problems, ...problems] };
}
