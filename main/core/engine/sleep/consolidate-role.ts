import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { describeError, isKiokuError } from '../../../../common/errors.js';
import { formatCompactDateTime, formatLocalDateTime, formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { readLockInfo, tryAcquireLock, type FileLock } from '../../platform/fs/file-lock.js';
import { removeOrphanedTempFiles } from '../../platform/fs/orphaned-temp-files.js';
import { forgetMemoriesUnderLock } from '../../store/memory/forget.js';
import { memoryLockFile, roleMemoryDir } from '../../store/memory/memory-layout.js';
import { applyQueuedReplays } from '../../store/index/replay-queue.js';
import { updateMemoryState } from '../../store/memory/memory-state.js';
import { redactSync } from '../../platform/privacy/redact-sync.js';
import { offerAfterConsolidation } from './project-memory-offer.js';
import { applyNewPlan, type AppliedPlan, type ApplyHooks } from './apply-plan.js';
import { collectBatch, type CollectLimits } from './collect.js';
import { MemoryCatalog } from './memory-catalog.js';
import { recordForgetting } from './forgetting-record.js';
import { existingById, replayPendingPlans } from './replay-pending.js';
import { emptyRoleResult, type RoleSleepResult, type SleepProgress } from './sleep-result.js';
import { PlannerError, type CollectedBatch, type Planner } from './sleep-plan.js';

/**
 * One role's consolidation (SLEEP-4): take the memory lock → finish any plan a crash left pending →
 * batch by batch: collect → plan → apply → forget → release.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/consolidate-role.ts".
 */
export interface ConsolidateOptions {
  planner: Planner;
  /** Why this run happens (manual, sleep, nap, catch-up): in the lock file and the logs. */
  reason: string;
  signal?: AbortSignal;
  onProgress?: (event: SleepProgress) => void;
  /** How long to wait for a memory lock held by someone else before reporting "busy". */
  lockWaitMs?: number;
  /** Tests: crash injection inside apply, fixed plan ids, a short planner timeout. */
  applyHooks?: ApplyHooks;
  newPlanId?: () => string;
  planTimeoutMs?: number;
}

/** A lock held this long is taken again between two batches (others judge locks stale after 30 min). */
const LOCK_REFRESH_MS = 10 * 60_000;
/** The planner's own timeout (ROLE_SLEEP_TIMEOUT) should fire first, with its output in the message. */
const TIMEOUT_GRACE_MS = 5_000;

export function newPlanId(now: Date): string {
  return `${formatCompactDateTime(now)}-${randomBytes(4).toString('hex')}`;
}

function lockHolder(file: string): string {
  const info = readLockInfo(file);
  return info ? `process ${info.pid} (${info.purpose}) since ${formatLocalDateTime(new Date(info.since))}` : 'another process';
}

/** The planner's answer, or a PlannerError: its own, a timeout, or anything else it threw. */
async function planBatch(
  planner: Planner,
  batch: CollectedBatch,
  planId: string,
  timeoutMs: number,
  outer?: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
  const none = { materialChars: batch.materialChars, outputChars: 0, batchSize: batch.items.length, outputHead: '' };
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () =>
      reject(
        outer?.aborted ? outer.reason : new PlannerError('timeout', `timeout — no plan within ${Math.round(timeoutMs / 1000)} s`, none),
      );
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    return await Promise.race([planner.plan(batch, planId, signal), aborted]);
  } catch (error) {
    if (outer?.aborted || error instanceof PlannerError) throw error;
    throw new PlannerError('execution', `planner ${planner.name} failed: ${describeError(error)}`, none);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** SLEEP-5's message: what failed and the four numbers that make it diagnosable. */
export function plannerFailureText(planner: string, error: PlannerError): string {
  const d = error.diagnostics;
  const numbers = `material ${d.materialChars} chars, output ${d.outputChars} chars, batch ${d.batchSize}, output starts ${JSON.stringify(redactSync(d.outputHead.slice(0, 200)))}`;
  const message = error.message.includes(`material ${d.materialChars}`) ? error.message : `${error.message} (${numbers})`;
  return `planner ${planner} failed (${error.kind}) on a batch of 1 after a retry; the inbox is left as it was: ${message}`;
}

function add(result: RoleSleepResult, applied: AppliedPlan): void {
  result.processed += applied.processed;
  result.created += applied.created;
  result.merged += applied.merged;
  result.discarded += applied.discarded;
  result.batches += 1;
  result.warnings.push(...applied.warnings);
}

export async function consolidateRole(config: KiokuConfig, role: string, options: ConsolidateOptions): Promise<RoleSleepResult> {
  const { planner, signal } = options;
  const result: RoleSleepResult = { ...emptyRoleResult(role), planner: planner.name };
  const memoryHome = config.paths.memoryHome;
  if (!fs.existsSync(roleMemoryDir(memoryHome, role))) return result; // no memories yet: nothing to consolidate or forget

  const lockFile = memoryLockFile(memoryHome, role);
  const acquire = () => tryAcquireLock(lockFile, { purpose: `consolidation (${options.reason})`, waitMs: options.lockWaitMs ?? 2_000 });
  let lock: FileLock | undefined = acquire();
  if (!lock)
    return {
      ...result,
      ok: false,
      busy: true,
      error: `busy: the memories of ${role} are locked by ${lockHolder(lockFile)}; try again later`,
    };
  let lockedAt = Date.now();
  const catalog = new MemoryCatalog(memoryHome, role);
  const progress = (event: SleepProgress) => options.onProgress?.(event);
  const announceLock = () =>
    progress({ type: 'locked', role, lockFile, ...(readLockInfo(lockFile) ? { since: readLockInfo(lockFile)!.since } : {}) });
  announceLock();
  try {
    // A writer killed mid-write left its temp file (archive/raw after a kill -9 mid-sleep): gone now.
    removeOrphanedTempFiles(roleMemoryDir(memoryHome, role));
    // Recalls without the daemon queued their hits (replay-queue.ts): into the files before any count is read.
    const replays = applyQueuedReplays(memoryHome, role, { lock });
    if (replays.status === 'applied') result.warnings.push(...replays.problems.map((p) => `${p.path}: ${p.message}`));
    // A crash left these: finish them before anything new is planned (they hold inbox items).
    const hooks: ApplyHooks = { ...options.applyHooks, catalog, reason: options.reason };
    const replay = await replayPendingPlans(config, role, catalog, hooks);
    result.warnings.push(...replay.problems);
    for (const applied of replay.applied) {
      add(result, applied);
      result.replayed += 1;
      progress({ type: 'replayed', role, planId: applied.planId });
    }

    const first = catalog.snapshot();
    progress({ type: 'role-start', role, inbox: first.inbox.length, planner: planner.name });
    for (const problem of first.problems)
      result.warnings.push(`${problem.path} cannot be read as a memory (${problem.message}); left as it is`);
    const limits: CollectLimits = {
      items: Math.max(1, planner.batchLimits?.items ?? config.settings.ROLE_SLEEP_BATCH),
      chars: planner.batchLimits?.chars ?? config.settings.ROLE_SLEEP_COLLECT_LIMIT,
      existing: planner.batchLimits?.existing ?? config.settings.ROLE_SLEEP_EXISTING_LIMIT,
    };
    const timeoutMs = options.planTimeoutMs ?? config.settings.ROLE_SLEEP_TIMEOUT * 1000 + TIMEOUT_GRACE_MS;
    let failuresAtSize = 0;
    for (;;) {
      if (signal?.aborted) {
        result.ok = false;
        result.error = `stopped before the inbox was done (${describeError(signal.reason)})`;
        break;
      }
      if (Date.now() - lockedAt > LOCK_REFRESH_MS) {
        lock.release();
        lock = acquire();
        if (!lock) {
          result.ok = false;
          result.busy = true;
          result.error = `busy: the memories of ${role} were taken by ${lockHolder(lockFile)} between two batches`;
          break;
        }
        lockedAt = Date.now();
        announceLock();
      }
      const snapshot = catalog.snapshot();
      const batch = collectBatch(role, snapshot, limits);
      if (!batch) break;
      progress({ type: 'batch-start', role, size: batch.items.length, left: batch.left });
      const planId = (options.newPlanId ?? (() => newPlanId(config.clock.now())))();
      let applied: AppliedPlan;
      try {
        const raw = await planBatch(planner, batch, planId, timeoutMs, signal);
        applied = await applyNewPlan(config, batch, planId, raw, existingById(snapshot), hooks);
      } catch (error) {
        if (signal?.aborted) continue; // reported at the top of the loop
        if (!(error instanceof PlannerError)) throw error;
        failuresAtSize += 1;
        progress({ type: 'batch-failed', role, size: batch.items.length, attempt: failuresAtSize, error: error.message });
        if (failuresAtSize < 2) continue; // retry the same batch once
        if (batch.items.length > 1) {
          limits.items = Math.max(1, Math.floor(Math.min(limits.items, batch.items.length) / 2));
          failuresAtSize = 0;
          continue;
        }
        result.ok = false;
        result.error = plannerFailureText(planner.name, error);
        break;
      }
      failuresAtSize = 0;
      add(result, applied);
      progress({ type: 'batch-applied', role, planId: applied.planId, processed: applied.processed, left: batch.left });
    }

    if (!signal?.aborted) {
      // SLEEP-4: apply → forget → release; with nothing in the inbox the flow still updates the sleep time, then forgets.
      const forgotten = forgetMemoriesUnderLock(config, role).forgotten;
      result.forgotten = forgotten.length;
      result.warnings.push(...(await recordForgetting(config, role, newPlanId(config.clock.now()), forgotten, options.reason)));
      // Issue 12: project conventions to their project's MEMORY.md (DSH-2), within its cap.
      result.warnings.push(...offerAfterConsolidation(catalog.snapshot().consolidated));
      if (result.ok)
        updateMemoryState(memoryHome, role, config.clock, (state) => ({ ...state, last_sleep: formatLocalIso(config.clock.now()) }));
    }
  } catch (error) {
    // Not the planner: the files (disk full, permissions). Whatever was recorded stays pending and is
    // finished by the next run; the inbox items it holds are still in the inbox or archived.
    result.ok = false;
    result.error = isKiokuError(error)
      ? `${error.message}${error.hint ? ` (${error.hint})` : ''}`
      : `consolidation of ${role} failed: ${describeError(error)}`;
  } finally {
    lock?.release();
  }
  result.left = catalog.snapshot().inbox.length;
  result.warnings = [...new Set(result.warnings)];
  progress({ type: 'role-done', role, result });
  return result;
}
