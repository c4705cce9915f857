import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import type { LockInfo } from '../../platform/fs/file-lock.js';
import { createDaemonHookHandlers } from './daemon-hook-handlers.js';
import { countSpoolPending, ingestSpool } from './spool-ingest.js';

/**
 * Issue 13: whoever consolidates drains the spool first.
 * Design notes: docs/design-notes.md, "main/core/hosts/daemon/ingest-before-sleep.ts".
 */
export interface SpoolIngestSummary {
  /** Events captured from the spool by this run. */
  ingested: number;
  /** Events moved to spool/failed/ (unreadable, or the handler threw). */
  failed: number;
  /** Another process kept the spool lock the whole wait: its pass handles the events. */
  busy?: { pid: number; purpose: string };
}

/** Long enough for a daemon's pass over a backlog condensed by the local condenser. */
export const SLEEP_SPOOL_WAIT_MS = 60_000;

export async function ingestSpoolBeforeSleep(
  config: KiokuConfig,
  logger: Logger,
  options: { lockWaitMs?: number } = {},
): Promise<SpoolIngestSummary> {
  const spoolDir = config.paths.spoolDir;
  // Nothing waiting: no handlers (they watch the memory folders) and no lock.
  if (countSpoolPending(spoolDir) === 0) return { ingested: 0, failed: 0 };
  const handlers = createDaemonHookHandlers(config.env, logger);
  try {
    const result = await ingestSpool(spoolDir, (record) => handlers.handleQueued(record), {
      logger,
      lockWaitMs: options.lockWaitMs ?? SLEEP_SPOOL_WAIT_MS,
    });
    if (result.handled) logger.info('spool', `captured ${result.handled} spooled event(s) before consolidating`);
    return { ingested: result.handled, failed: result.failed, ...(result.busy ? { busy: holder(result.busy) } : {}) };
  } finally {
    handlers.close();
  }
}

function holder(info: LockInfo): { pid: number; purpose: string } {
  return { pid: info.pid, purpose: info.purpose };
}
