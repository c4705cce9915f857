import { describeError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { readSyncConfig } from './sync-config.js';
import type { SyncRun } from './sync-now.js';
import { isRepo } from './sync-repo.js';
import { backoffMinutes, readSyncRecord } from './sync-state.js';

/**
 * The app's and `kioku daemon`'s own syncing: once at start, then every
 * KIOKU_SYNC_INTERVAL_MINUTES while no consolidation runs (a sleep syncs by itself when it ends),
 * and after failures only as the backoff allows (1, 2, 4 … minutes, at most the interval or an
 * hour), so an offline laptop does not try every minute. Checks once a minute.
 */
export interface AutoSyncDeps {
  config(): KiokuConfig;
  logger: Logger;
  /** True while a consolidation runs: its own sync follows it. */
  busy(): boolean;
  runSync(config: KiokuConfig): Promise<SyncRun>;
  setInterval?(fn: () => void, ms: number): unknown;
  clearInterval?(handle: unknown): void;
}

export interface AutoSync {
  start(): void;
  stop(): void;
  /** One look now, as the minute timer takes it (tests). Resolves when a sync it started ends. */
  check(): Promise<void>;
}

const CHECK_MS = 60_000;
const MAX_BACKOFF_MINUTES = 60;

export function createAutoSync(deps: AutoSyncDeps): AutoSync {
  let handle: unknown;
  let running: Promise<void> | undefined;
  let started = false;
  let lastAttemptMs: number | undefined;

  const due = (config: KiokuConfig): boolean => {
    const sync = readSyncConfig(config.paths);
    if (!sync?.approvedAt || !isRepo(config.paths.memoryHome)) return false;
    const now = config.clock.now().getTime();
    if (lastAttemptMs === undefined) return true; // the sync at start
    const interval = config.settings.KIOKU_SYNC_INTERVAL_MINUTES;
    const record = readSyncRecord(config.paths);
    const failures = record && record.outcome !== 'ok' ? record.failures : 0;
    const waitMinutes =
      failures > 0 ? backoffMinutes(failures, Math.max(1, Math.min(interval || MAX_BACKOFF_MINUTES, MAX_BACKOFF_MINUTES))) : interval;
    if (failures === 0 && interval === 0) return false;
    const last = Math.max(lastAttemptMs, record ? Date.parse(record.at) || 0 : 0);
    return now - last >= waitMinutes * 60_000;
  };

  const check = async (): Promise<void> => {
    if (running) return running;
    const config = deps.config();
    if (deps.busy() || !due(config)) return;
    lastAttemptMs = config.clock.now().getTime();
    running = deps
      .runSync(config)
      .then((run) => {
        if (run.outcome !== 'ok') deps.logger.warn('sync', `${run.outcome}: ${run.message}`);
      })
      .catch((error: unknown) => deps.logger.warn('sync', `sync failed: ${describeError(error)}`))
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  return {
    start() {
      if (started) return;
      started = true;
      void check();
      handle = (deps.setInterval ?? setInterval)(() => void check(), CHECK_MS);
      (handle as { unref?: () => void }).unref?.();
    },
    stop() {
      if (handle !== undefined) (deps.clearInterval ?? ((h) => clearInterval(h as NodeJS.Timeout)))(handle);
      handle = undefined;
    },
    check,
  };
}
