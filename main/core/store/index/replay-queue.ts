import fs from 'node:fs';
import path from 'node:path';
import type { Memory, MemoryLoadProblem } from '../../../../common/memory.js';
import { explainInvalidRoleId } from '../../../../common/role-id.js';
import { readLockInfo, tryAcquireLock, type FileLock } from '../../platform/fs/file-lock.js';
import { joinPlain } from '../../platform/fs/plain-join.js';
import { memoryLockFile, roleMemoryDir } from '../memory/memory-layout.js';
import { rewriteMemoryFile } from '../memory/rewrite-memory.js';
import { absoluteMemoryPath } from './folder-diff.js';
import { readQueue, readQueueFor, type Pending, type QueuedLine } from './replay-queue-reader.js';
import { replayedCounts, type ReplayCounts, type WriteBackTarget } from './recall-write-back.js';

/**
 * Recall's write-back, queued (issue 17, seed 000: hits + 1, `last_replayed`): a recall without
 * the daemon appends one line here and exits, instead of rewriting its hits' files and the index
 * on the answer's path (300 ms at 100,000 memories, most of it re-listing the folders for the
 * index). The queue is applied under the role's memory lock by whoever writes the memories next
 * anyway — a sleep before it reads the counts, the daemon before it recalls, `memory reindex`, or
 * the process a recall that finds the queue long starts (main/cli/replay-applier.ts) — and until
 * then recall shows the queued counts (`queuedReplays`), so recalls one after another count each
 * other as before.
 *
 * An append of one short line is not torn by a concurrent one (O_APPEND); a line cut short by a
 * crash is skipped. While it is applied the queue is renamed aside, and each file done is noted
 * there, so an apply cut short resumes without counting a file twice (but for the one file being
 * rewritten at that moment, which may count one replay more: a count, never a memory, is at stake).
 */

const SUFFIX = '.jsonl';
const APPLYING = '.applying';
/** A queue this long gets applied, by a process the recall that made it so starts (each recall adds about 0.1 KB per hit). */
export const APPLY_AT_BYTES = 32 * 1024;
/** How long applying waits for the memory lock before leaving the queue for later. */
const LOCK_WAIT_MS = 100;

/** Queued replays of a role: in the memory home's own state folder, which sync leaves alone (sync-layout.ts). */
export function replayQueueFile(memoryHome: string, role: string): string {
  roleMemoryDir(memoryHome, role); // rejects a bad role ID
  return joinPlain(memoryHome, `.kioku/replays/${role}${SUFFIX}`);
}

function relativePath(memoryHome: string, file: string): string {
  return path.relative(memoryHome, file).split(path.sep).join('/');
}

/** Queue a recall's replays: one line, appended. */
export function queueReplays(memoryHome: string, role: string, at: string, targets: readonly WriteBackTarget[]): void {
  queueReplaysOf(
    memoryHome,
    role,
    at,
    targets.map((t) => [relativePath(memoryHome, t.path), t.category, t.mtimeMs]),
  );
}

/**
 * The same with each hit by its path under the memory home, as the index keeps it: a recall
 * queues its rows as they are (making each path absolute and relative again was half a
 * millisecond of a CLI recall, path.relative resolving both paths each time; issue 17).
 */
export function queueReplaysOf(memoryHome: string, role: string, at: string, hits: QueuedLine['hits']): void {
  if (!hits.length) return;
  const file = replayQueueFile(memoryHome, role);
  const line: QueuedLine = { at, hits };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
}

/** Bytes queued for a role (0: none): what tells a recall to apply the queue. */
export function queuedBytes(memoryHome: string, role: string): number {
  const file = replayQueueFile(memoryHome, role);
  let bytes = 0;
  for (const name of [file, file + APPLYING]) bytes += fs.statSync(name, { throwIfNoEntry: false })?.size ?? 0;
  return bytes;
}

/**
 * The replays queued for a role and not yet in its files, by absolute path: what a recall adds to
 * the counts it read from the index (recall.ts) and a forgetting pass to the files' (forget.ts).
 */
export function pendingReplays(memoryHome: string, role: string): Map<string, Pending> {
  const out = new Map<string, Pending>();
  for (const [rel, entry] of queuedReplays(memoryHome, role)) out.set(absoluteMemoryPath(memoryHome, rel), entry);
  return out;
}

/**
 * The same by path under the memory home (`<role>/<folder>/<name>.md`, as the index keeps it):
 * what a recall looks its few hits up in. Making every queued path absolute was most of reading
 * a long queue, and made path.join hot enough in a CLI recall that V8 compiled it in the
 * background — a compilation the process then waited for before it could exit (issue 17).
 * `only`: those files alone, from the lines that name them (replay-queue-reader.ts `readQueueFor`).
 */
export function queuedReplays(memoryHome: string, role: string, only?: readonly string[]): Map<string, Pending> {
  const file = replayQueueFile(memoryHome, role);
  const out = new Map<string, Pending>();
  if (only && !only.length) return out;
  for (const name of [file + APPLYING, file]) {
    for (const [rel, entry] of only ? readQueueFor(name, role, only) : readQueue(name, role)) {
      const known = out.get(rel);
      out.set(rel, known ? { ...entry, times: known.times + entry.times } : entry);
    }
  }
  return out;
}

/** Counts with `times` replays applied, the last at `at`: what applying the queue writes. */
export function withReplays(counts: ReplayCounts, times: number, at: string): ReplayCounts {
  let out = counts;
  for (let i = 0; i < times; i++) out = replayedCounts(out, at);
  return out;
}

export type ApplyOutcome =
  { status: 'applied'; written: Map<string, Memory>; problems: MemoryLoadProblem[] } | { status: 'locked'; holder: string };

/**
 * Write a role's queued replays into its files, each file once, under the role's memory lock
 * (`lock`: one the caller holds, kept; otherwise one taken here and released). The paths written
 * are returned for the caller's index. Nothing queued: nothing done, no lock taken.
 */
export function applyQueuedReplays(memoryHome: string, role: string, options: { lock?: FileLock; waitMs?: number } = {}): ApplyOutcome {
  const file = replayQueueFile(memoryHome, role);
  const applying = file + APPLYING;
  const written = new Map<string, Memory>();
  const problems: MemoryLoadProblem[] = [];
  if (!fs.existsSync(file) && !fs.existsSync(applying)) return { status: 'applied', written, problems };
  let lock = options.lock;
  let own: FileLock | undefined;
  if (!lock) {
    const lockFile = memoryLockFile(memoryHome, role);
    own = tryAcquireLock(lockFile, { purpose: 'recall write-back', waitMs: options.waitMs ?? LOCK_WAIT_MS });
    if (!own) {
      const info = readLockInfo(lockFile);
      return { status: 'locked', holder: info ? `process ${info.pid} (${info.purpose})` : 'another process' };
    }
    lock = own;
  }
  try {
    // An apply cut short left its file aside: finished first, then what was queued since.
    for (let round = 0; round < 2; round++) {
      if (!fs.existsSync(applying)) {
        try {
          fs.renameSync(file, applying);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') break;
          throw error;
        }
      }
      applyFile(memoryHome, applying, role, written, problems);
      fs.rmSync(applying, { force: true });
    }
  } finally {
    own?.release();
  }
  return { status: 'applied', written, problems };
}

function applyFile(memoryHome: string, applying: string, role: string, written: Map<string, Memory>, problems: MemoryLoadProblem[]) {
  for (const [rel, entry] of readQueue(applying, role)) {
    const abs = absoluteMemoryPath(memoryHome, rel);
    try {
      const context = {
        folderCategory: entry.category,
        fileId: path.basename(abs, '.md'),
        fileTime: new Date(entry.mtimeMs).toISOString(),
      };
      const next = rewriteMemoryFile(abs, context, (memory) => ({ ...memory, ...withReplays(memory, entry.times, entry.at) }));
      if (next) written.set(abs, next);
    } catch (error) {
      const gone = (error as NodeJS.ErrnoException).code === 'ENOENT';
      problems.push({
        path: abs,
        message: `hits not written back: ${gone ? 'the file is gone (forgotten or moved since the recall)' : (error as Error).message}`,
      });
    }
    // Noted even when it failed: a file that cannot be rewritten is not tried on every apply.
    fs.appendFileSync(applying, `${JSON.stringify({ done: rel })}\n`);
  }
}

/** Roles with replays queued (for `memory reindex` of every role). */
export function rolesWithQueuedReplays(memoryHome: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(memoryHome, '.kioku', 'replays'));
  } catch {
    return [];
  }
  const roles = new Set<string>();
  for (const name of names) {
    const base = name.endsWith(APPLYING) ? name.slice(0, -APPLYING.length) : name;
    const role = base.slice(0, -SUFFIX.length);
    if (base.endsWith(SUFFIX) && !explainInvalidRoleId(role)) roles.add(role);
  }
  return [...roles].sort();
}
