import type { SleepStatus } from '../../../../common/hook-protocol.js';
import { loadConfig, type KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { createDaemonHookHandlers } from './daemon-hook-handlers.js';
import { consolidateInWorker, createDaemonScheduler, requestSessionCatchUp, type DaemonSchedulerOptions } from './daemon-scheduler.js';
import type { SleepScheduler } from '../../engine/schedule/sleep-scheduler.js';
import { createSleepState, type SleepStateMachine } from '../../engine/schedule/sleep-state.js';
import { createAutoSync } from '../../engine/sync/auto-sync.js';
import { runSyncInWorker } from '../../engine/sync/run-sync-in-worker.js';
import type { SyncRun } from '../../engine/sync/sync-now.js';
import { startDaemon, type AnswerHandler, type DaemonHandle, type QueuedHandler } from './daemon.js';
import { createManualRunner, type ManualRunResult } from './manual-sleep.js';
import { createRecallService } from '../../store/index/recall-service.js';

/**
 * The core every long-running host runs (ARCHITECTURE.md: "same core, no Electron"): the hook
 * socket with spool ingestion (daemon.ts), the hook handlers, and the sleep scheduler — started
 * the same way by `kioku daemon` (main/cli) and by the tray app (main/app). Adds what only a host
 * with buttons needs: pausing the schedule and consolidating on request ("sleep now", "nap now").
 */
export type CoreScheduleMode = 'running' | 'paused' | 'off';

export interface CoreDeps {
  logger: Logger;
  version: string;
  /** false: no sleep schedule on this host at all (`--no-schedule`, KIOKU_NO_SCHEDULE=1). */
  schedule: boolean;
  /** Start with the schedule paused (the app's saved choice). */
  schedulePaused?: boolean;
  /** Tests inject their own hook handlers; default: the shared hook code (HOOK-5). */
  handleHook?: AnswerHandler;
  handleQueued?: QueuedHandler;
  /** Tests: the scheduler's timer, and the consolidation used by the schedule and manual runs. */
  scheduler?: DaemonSchedulerOptions;
  spoolPollMs?: number;
  /** Tests: what a sync run does (default: `kioku sync now` in a worker thread). */
  runSync?: (config: KiokuConfig) => Promise<SyncRun>;
}

export interface KiokuCore {
  readonly config: KiokuConfig;
  readonly daemon: DaemonHandle;
  /** Listening, the spool ingested, the scheduler started. Rejects when the socket cannot listen. */
  readonly ready: Promise<void>;
  /** The sleep state to show (SLEEP-7); with the schedule paused or off, only the window's awake/asleep and manual runs. */
  sleepStatus(): SleepStatus;
  /** Every change of sleepStatus(), across pauses and resumes. */
  onSleepStatus(listener: (status: SleepStatus) => void): () => void;
  scheduleMode(): CoreScheduleMode;
  pauseSchedule(): void;
  resumeSchedule(): void;
  sleepNow(): Promise<ManualRunResult>;
  napNow(): Promise<ManualRunResult>;
  /** Stop the scheduler and the socket; a consolidation in hand stops between batches. Idempotent. */
  stop(): Promise<void>;
}

export function startCore(config: KiokuConfig, deps: CoreDeps): KiokuCore {
  const { logger } = deps;
  const stopping = new AbortController();
  const freshConfig = () => loadConfig(config.env);
  const consolidate =
    deps.scheduler?.consolidate ??
    ((role: string, reason: 'sleep' | 'nap' | 'catch-up') => consolidateInWorker(config, role, reason, stopping.signal));

  // Without a running scheduler (paused, off) the state still follows the window and shows manual runs.
  const idleState = createSleepState(config.clock, () => freshConfig().settings);
  let scheduler: SleepScheduler | undefined;
  /** A paused scheduler whose run in hand has not finished: still the one to show. */
  let draining: SleepScheduler | undefined;
  let paused = Boolean(deps.schedulePaused);
  let stopped = false;
  const listeners = new Set<(status: SleepStatus) => void>();
  let unwatch: (() => void) | undefined;

  const machine = (): SleepStateMachine => scheduler?.state ?? draining?.state ?? idleState;
  const emit = () => {
    const status = machine().status();
    for (const listener of [...listeners]) {
      try {
        listener(status);
      } catch {
        /* a broken listener must not stop the others */
      }
    }
  };
  const watchMachine = () => {
    unwatch?.();
    unwatch = machine().subscribe(emit);
    emit();
  };

  let sessionCatchUp: ((config: KiokuConfig) => void) | undefined;
  const makeScheduler = (): SleepScheduler => {
    const made = createDaemonScheduler(config, logger, { ...deps.scheduler, consolidate });
    sessionCatchUp = (terminal) => void requestSessionCatchUp(made, terminal);
    return made;
  };

  const recalls = createRecallService(config.paths, logger);
  const shared = createDaemonHookHandlers(
    config.env,
    logger,
    deps.schedule ? { onSessionStart: (terminal) => sessionCatchUp?.(terminal) } : {},
  );
  const daemon = startDaemon(config, {
    handleHook: deps.handleHook ?? shared.handleHook,
    handleQueued: deps.handleQueued ?? shared.handleQueued,
    afterQueueDrained: shared.afterQueueDrained,
    backgroundPending: shared.backgroundPending,
    recall: (request) => recalls.recall(request),
    logger,
    version: deps.version,
    ...(deps.spoolPollMs !== undefined ? { spoolPollMs: deps.spoolPollMs } : {}),
    // `--no-schedule` keeps the status reply without a sleep field (no scheduler answers for it).
    ...(deps.schedule ? { sleepStatus: () => machine().status() } : {}),
  });

  const startScheduler = () => {
    if (stopped || !deps.schedule || paused || scheduler) return;
    scheduler = makeScheduler();
    scheduler.start();
    watchMachine();
  };

  const manual = createManualRunner({
    config: freshConfig,
    machine,
    consolidate,
    schedulerIdle: async () => {
      await draining?.idle();
      await scheduler?.idle();
    },
  });

  // A home synced through git syncs at start and every KIOKU_SYNC_INTERVAL_MINUTES (auto-sync.ts).
  const autoSync = createAutoSync({
    config: freshConfig,
    logger,
    busy: () => machine().status().state === 'consolidating',
    runSync: deps.runSync ?? ((fresh) => runSyncInWorker(fresh.env)),
  });
  const ready = daemon.ready.then(() => {
    if (paused && deps.schedule) idleState.noteCheck('schedule', 'paused by the user');
    startScheduler();
    if (!stopped) autoSync.start();
  });
  ready.catch(() => undefined);
  watchMachine();

  return {
    config,
    daemon,
    ready,
    sleepStatus: () => machine().status(),
    onSleepStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    scheduleMode: () => (!deps.schedule ? 'off' : paused ? 'paused' : 'running'),
    pauseSchedule() {
      if (!deps.schedule || paused) return;
      paused = true;
      logger.info('schedule', 'paused by the user');
      const old = scheduler;
      scheduler = undefined;
      if (old) {
        old.stop();
        // Shown until its run in hand ends: it says the pause too.
        old.state.noteCheck('schedule', 'paused by the user');
        draining = old;
        void old.idle().then(() => {
          if (draining !== old) return;
          draining = undefined;
          watchMachine();
        });
      }
      idleState.noteCheck('schedule', 'paused by the user');
      watchMachine();
    },
    resumeSchedule() {
      if (!deps.schedule || !paused) return;
      paused = false;
      logger.info('schedule', 'resumed by the user');
      draining = undefined;
      // Before the socket is ready, `ready` starts it.
      void daemon.ready.then(startScheduler, () => undefined);
    },
    sleepNow: () => manual.run('sleep'),
    napNow: () => manual.run('nap'),
    async stop() {
      if (!stopped) {
        stopped = true;
        autoSync.stop();
        scheduler?.stop();
        draining?.stop();
        stopping.abort('Kioku is stopping');
        unwatch?.();
        shared.close();
      }
      await daemon.stop();
      recalls.close();
    },
  };
}
