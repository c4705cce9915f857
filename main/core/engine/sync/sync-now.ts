import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { describeError, KiokuError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { silentLogger, type Logger } from '../../platform/config/log.js';
import { tryAcquireLock } from '../../platform/fs/file-lock.js';
import { rebuildDerived } from './rebuild-derived.js';
import { readSyncConfig, type SyncConfig } from './sync-config.js';
import { syncTrees, type SyncTree, type TreeName } from './sync-layout.js';
import { isRepo } from './sync-repo.js';
import { readSyncRecord, writeSyncRecord, type SyncOutcome } from './sync-state.js';
import {
  ChangedDuringMerge,
  changedSince,
  commitLocal,
  fetchRemote,
  headOf,
  mergeRemote,
  pushBranch,
  recoverInterrupted,
  type StepContext,
} from './tree-steps.js';

/**
 * `kioku sync now`: for each tree, commit what changed here, fetch, merge (Kioku's drivers),
 * push — fetching and merging again when another machine pushed in between — then rebuild what
 * is derived. One sync at a time per memory home (a lock in the state dir). An unreachable remote
 * is "offline", not an error: local commits wait for the next sync.
 */
export interface TreeSync {
  tree: TreeName;
  committed: boolean;
  merged: boolean;
  pushed: boolean;
  offline?: string;
  conflicts: string[];
  changed: number;
}

export interface SyncRun {
  outcome: SyncOutcome;
  message: string;
  trees: TreeSync[];
  seconds: number;
}

const PUSH_ATTEMPTS = 4;

export function syncLockFile(config: KiokuConfig): string {
  return path.join(config.paths.stateDir, 'sync.lock');
}

export function requireSyncConfig(config: KiokuConfig): SyncConfig {
  const sync = readSyncConfig(config.paths);
  if (!sync || !isRepo(config.paths.memoryHome)) {
    throw new KiokuError('NOT_FOUND', `sync is not set up for ${config.paths.memoryHome}`, {
      hint: 'run `kioku sync init --remote <git URL>` first',
    });
  }
  if (!sync.approvedAt) {
    throw new KiokuError('REFUSED', 'nothing is sent until you agree to the first push', {
      hint: 'run `kioku sync init --remote <git URL>` again and answer yes',
    });
  }
  return sync;
}

/** Run `fn` holding the sync lock; waits up to `waitMs` for another sync to finish. */
export function withSyncLock<T>(config: KiokuConfig, waitMs: number, fn: () => Promise<T>): Promise<T> {
  const lock = tryAcquireLock(syncLockFile(config), { purpose: 'kioku sync', waitMs, staleMs: 15 * 60_000 });
  if (!lock) {
    throw new KiokuError('LOCKED', 'another sync of this memory home is running', {
      path: syncLockFile(config),
      hint: 'wait for it to finish and try again',
    });
  }
  return fn().finally(() => lock.release());
}

export async function syncTree(tree: SyncTree, ctx: StepContext): Promise<TreeSync & { changedFiles: string[] }> {
  const out: TreeSync & { changedFiles: string[] } = {
    tree: tree.name,
    committed: false,
    merged: false,
    pushed: false,
    conflicts: [],
    changed: 0,
    changedFiles: [],
  };
  recoverInterrupted(tree, ctx.env);
  const before = headOf(tree.dir, ctx.env);
  out.committed = await commitLocal(tree, ctx);
  for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt++) {
    const fetched = fetchRemote(tree, ctx);
    if (!fetched.ok) {
      out.offline = fetched.message;
      break;
    }
    if (fetched.remoteHasBranch) {
      const beforeMerge = headOf(tree.dir, ctx.env);
      try {
        out.conflicts.push(...(await mergeRemote(tree, ctx)));
      } catch (error) {
        if (!(error instanceof ChangedDuringMerge) || attempt === PUSH_ATTEMPTS) throw error;
        await commitLocal(tree, ctx); // written meanwhile: commit it and merge again
        continue;
      }
      out.merged ||= headOf(tree.dir, ctx.env) !== beforeMerge;
    }
    const pushed = pushBranch(tree, ctx);
    if (pushed.ok) {
      out.pushed = true;
      break;
    }
    if (!pushed.rejected) {
      out.offline = pushed.message;
      break;
    }
    // Another machine pushed meanwhile; anything written here since is committed with the next round.
    await commitLocal(tree, ctx);
  }
  out.changedFiles = changedSince(tree, before, ctx.env);
  out.changed = out.changedFiles.length;
  return out;
}

export async function syncNow(config: KiokuConfig, options: { logger?: Logger; lockWaitMs?: number } = {}): Promise<SyncRun> {
  const logger = options.logger ?? silentLogger;
  const sync = requireSyncConfig(config);
  const started = performance.now();
  const ctx: StepContext = { env: config.env, machine: sync.machine, now: config.clock.now() };
  const previous = readSyncRecord(config.paths);
  return withSyncLock(config, options.lockWaitMs ?? 30_000, async () => {
    const trees: TreeSync[] = [];
    const changed = { memory: [] as string[], roles: [] as string[] };
    let outcome: SyncOutcome = 'ok';
    let message = '';
    try {
      for (const tree of syncTrees(config.paths)) {
        const { changedFiles, ...result } = await syncTree(tree, ctx);
        trees.push(result);
        changed[tree.name].push(...changedFiles);
        if (result.offline) {
          outcome = 'offline';
          message = `the remote could not be reached (${result.offline}); local changes are committed and wait for the next sync`;
        }
      }
    } catch (error) {
      outcome = 'error';
      message = describeError(error);
      throw error;
    } finally {
      rebuildDerived(config, changed, logger);
      const conflicts = trees.reduce((n, t) => n + t.conflicts.length, 0);
      writeSyncRecord(config.paths, {
        at: config.clock.now().toISOString(),
        outcome,
        message,
        failures: outcome === 'ok' ? 0 : (previous?.failures ?? 0) + 1,
        lastOkAt: outcome === 'ok' ? config.clock.now().toISOString() : (previous?.lastOkAt ?? null),
        conflicts,
      });
      if (outcome !== 'error')
        logger.info(
          'sync',
          `${outcome}: ${trees.map((t) => `${t.tree} ${t.changed} changed, ${t.conflicts.length} conflicts`).join('; ')}`,
        );
    }
    return { outcome, message, trees, seconds: (performance.now() - started) / 1000 };
  });
}
