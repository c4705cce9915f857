import { describeError } from '../../../../common/errors.js';
import type { Logger } from '../../platform/config/log.js';
import { ingestSpool, type SpoolHandler } from './spool-ingest.js';

/**
 * The capture queue: one worker that drains the spool, one event at a time, in arrival order.
 * Design notes: docs/design-notes.md, "main/core/hosts/daemon/capture-queue.ts".
 */
export interface CaptureQueueStats {
  busy: boolean;
  handled: number;
  failed: number;
}

export interface CaptureQueue {
  /** Something may have arrived: run a pass now, or right after the current one. */
  kick(): void;
  /** Resolves when no pass is running or due. */
  idle(): Promise<void>;
  /**
   * Resolves when every file in the spool now has been handed over: a full pass that started
   * after this call has ended. Unlike idle(), steady new traffic cannot postpone it.
   */
  flush(): Promise<void>;
  stats(): CaptureQueueStats;
  /** Finish the event in hand, leave the rest in the spool. */
  stop(): Promise<void>;
}

export interface CaptureQueueOptions {
  spoolDir: string;
  handle: SpoolHandler;
  logger: Logger;
  /** Also look every this often: hooks that timed out spool while the daemon runs. Default 2 s. */
  pollMs?: number;
  /**
   * After a run of passes that handled events, before the queue counts as idle: work that should
   * follow a burst of captures once, not each of them (the daemon prepares the next load).
   */
  afterDrained?: () => void;
}

/** Another process holds the spool lock: look again this soon. */
const BUSY_RETRY_MS = 100;

export function createCaptureQueue(options: CaptureQueueOptions): CaptureQueue {
  const { spoolDir, handle, logger } = options;
  let due = false;
  let stopped = false;
  let running: Promise<void> | undefined;
  let handled = 0;
  let failed = 0;
  let passesStarted = 0;
  let waiters: { pass: number; resolve: () => void }[] = [];

  const release = (upTo: number) => {
    const done = waiters.filter((w) => w.pass <= upTo);
    waiters = waiters.filter((w) => w.pass > upTo);
    for (const waiter of done) waiter.resolve();
  };

  async function drain(): Promise<void> {
    const handledBefore = handled;
    let busySaid = false;
    // `due` is tested and `running` cleared with no await in between, so a kick that lands
    // while the last pass finishes is never lost.
    while (due && !stopped) {
      due = false;
      const pass = ++passesStarted;
      try {
        const result = await ingestSpool(spoolDir, handle, { logger, shouldStop: () => stopped });
        if (result.busy) {
          if (!busySaid)
            logger.info(
              'spool',
              `process ${result.busy.pid} (${result.busy.purpose}) is ingesting ${spoolDir}; waiting for its pass to end`,
            );
          busySaid = true;
          // `kioku sleep`/`nap` is ingesting (issue 13): this pass has not happened yet — wait
          // for its lock, so flush() (the start's "ready") still means "the spool was handled".
          due = true;
          await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
          continue;
        }
        handled += result.handled;
        failed += result.failed;
        if (!due && handled > handledBefore && !stopped) runAfterDrained();
        release(pass);
      } catch (error) {
        // A folder we cannot list: say so and let the poll try again, rather than spin.
        logger.error('spool', `cannot ingest ${spoolDir}: ${describeError(error)}`);
        break;
      }
    }
    running = undefined;
    // Stopped or failed: nobody would wake these waiters, and they must not hang a shutdown.
    release(Number.POSITIVE_INFINITY);
  }

  function runAfterDrained(): void {
    try {
      options.afterDrained?.();
    } catch (error) {
      logger.warn('spool', `after the queue drained: ${describeError(error)}`);
    }
  }

  function kick(): void {
    if (stopped) return;
    due = true;
    running ??= drain();
  }

  const timer = setInterval(kick, options.pollMs ?? 2_000);
  timer.unref();

  return {
    kick,
    async idle() {
      while (running) await running;
    },
    flush() {
      if (stopped) return Promise.resolve();
      const pass = passesStarted + 1;
      const done = new Promise<void>((resolve) => waiters.push({ pass, resolve }));
      kick();
      return done;
    },
    stats: () => ({ busy: running !== undefined, handled, failed }),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
