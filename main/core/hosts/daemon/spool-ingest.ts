import fs from 'node:fs';
import path from 'node:path';
import { describeError } from '../../../../common/errors.js';
import { parseSpoolRecord, type SpoolRecord } from '../../../../common/hook-protocol.js';
import { silentLogger, type Logger } from '../../platform/config/log.js';
import { isTempFileName } from '../../platform/fs/atomic-write.js';
import { readLockInfo, tryAcquireLock, type LockInfo } from '../../platform/fs/file-lock.js';
import { SPOOL_FAILED, SPOOL_PROCESSING, isSpoolFileName } from '../../platform/ipc/spool-writer.js';

/**
 * Ingest `<state>/spool/` in name (= arrival) order.
 * Design notes: docs/design-notes.md, "main/core/hosts/daemon/spool-ingest.ts".
 */
export type SpoolHandler = (record: SpoolRecord, file: string) => Promise<void> | void;

export interface IngestOptions {
  logger?: Logger;
  /** Checked between files: a daemon that is stopping leaves the rest for its successor. */
  shouldStop?: () => boolean;
  /** How long to wait for another ingester's pass to end (ms); default 0: one try. */
  lockWaitMs?: number;
}

export interface IngestResult {
  handled: number;
  /** Moved to `failed/`: unreadable, not an event, or the handler threw. */
  failed: number;
  /** Another process was ingesting and kept the lock past `lockWaitMs`: nothing was handled. */
  busy?: LockInfo;
}

/** The lock every ingester holds for a pass: next to the spool folder, so never listed as an event. */
export function spoolLockFile(spoolDir: string): string {
  return path.join(path.dirname(spoolDir), 'spool.lock');
}

/**
 * A live holder keeps the lock for its whole pass, which may condense hundreds of turns with an
 * LLM CLI; a dead one (same machine) is taken over at once by file-lock.ts.
 */
const SPOOL_LOCK_STALE_MS = 24 * 60 * 60_000;
const LOCK_RETRY_MS = 50;

/** Temp files older than this were left by a writer that died between write and rename. */
const ORPHAN_TEMP_MS = 10 * 60_000;

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await fs.promises.readdir(dir)).filter(isSpoolFileName).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Events waiting in the spool, `processing/` included. Synchronous on purpose: a status reply
 * must count what is on disk now (a test or the UI waits for 0), and listing a small folder
 * costs microseconds.
 */
export function countSpoolPending(spoolDir: string): number {
  const count = (dir: string) => {
    try {
      return fs.readdirSync(dir).filter(isSpoolFileName).length;
    } catch {
      return 0;
    }
  };
  return count(spoolDir) + count(path.join(spoolDir, SPOOL_PROCESSING));
}

async function removeOrphanTemps(dir: string, logger: Logger): Promise<void> {
  let names: string[];
  try {
    names = (await fs.promises.readdir(dir)).filter(isTempFileName);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (Date.now() - (await fs.promises.stat(file)).mtimeMs < ORPHAN_TEMP_MS) continue;
      await fs.promises.unlink(file);
      logger.info('spool', `removed ${file}, a half-written spool entry left by a process that died before finishing it`);
    } catch {
      /* gone meanwhile */
    }
  }
}

async function moveToFailed(spoolDir: string, claimed: string, why: string, logger: Logger): Promise<void> {
  const failedDir = path.join(spoolDir, SPOOL_FAILED);
  const target = path.join(failedDir, path.basename(claimed));
  try {
    await fs.promises.mkdir(failedDir, { recursive: true, mode: 0o700 });
    await fs.promises.rename(claimed, target);
    logger.error('spool', `${why}; moved it to ${target} (move it back into ${spoolDir} to retry)`);
  } catch (error) {
    logger.error('spool', `${why}; could not move it to ${failedDir} either (${describeError(error)}): delete ${claimed} by hand`);
  }
}

/** Handle one claimed file: parse, handle, delete. Returns whether it was handled. */
async function handleClaimed(spoolDir: string, claimed: string, handle: SpoolHandler, logger: Logger): Promise<boolean> {
  let text: string;
  try {
    text = await fs.promises.readFile(claimed, 'utf8');
  } catch (error) {
    await moveToFailed(spoolDir, claimed, `cannot read spool file ${claimed} (${describeError(error)})`, logger);
    return false;
  }
  const parsed = parseSpoolRecord(text);
  if (!parsed.ok) {
    await moveToFailed(spoolDir, claimed, `spool file ${claimed} is not an event (${parsed.message})`, logger);
    return false;
  }
  try {
    await handle(parsed.value, claimed);
  } catch (error) {
    await moveToFailed(
      spoolDir,
      claimed,
      `handling ${parsed.value.event} ${parsed.value.eventId} from ${claimed} failed: ${describeError(error)}`,
      logger,
    );
    return false;
  }
  await fs.promises.rm(claimed, { force: true });
  return true;
}

export async function ingestSpool(spoolDir: string, handle: SpoolHandler, options: IngestOptions = {}): Promise<IngestResult> {
  const lockFile = spoolLockFile(spoolDir);
  const deadline = Date.now() + (options.lockWaitMs ?? 0);
  // Created before the lock, so the state folder gets the spool's private mode.
  await fs.promises.mkdir(path.join(spoolDir, SPOOL_PROCESSING), { recursive: true, mode: 0o700 });
  for (;;) {
    const lock = tryAcquireLock(lockFile, { purpose: 'spool ingest', staleMs: SPOOL_LOCK_STALE_MS });
    if (lock) {
      try {
        return await ingestLocked(spoolDir, handle, options);
      } finally {
        lock.release();
      }
    }
    if (Date.now() >= deadline) {
      const holder = readLockInfo(lockFile);
      return { handled: 0, failed: 0, busy: holder ?? { pid: 0, host: '', since: 0, purpose: 'unknown' } };
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
}

async function ingestLocked(spoolDir: string, handle: SpoolHandler, options: IngestOptions): Promise<IngestResult> {
  const logger = options.logger ?? silentLogger;
  const stop = options.shouldStop ?? (() => false);
  const processingDir = path.join(spoolDir, SPOOL_PROCESSING);
  const result: IngestResult = { handled: 0, failed: 0 };
  const count = (handled: boolean) => (handled ? result.handled++ : result.failed++);

  await fs.promises.mkdir(processingDir, { recursive: true, mode: 0o700 });
  const recovered = await namesIn(processingDir);
  if (recovered.length > 0)
    logger.warn(
      'spool',
      `${recovered.length} event(s) in ${processingDir} were claimed by a daemon that stopped before finishing; handling them again first`,
    );
  for (const name of recovered) {
    if (stop()) return result;
    count(await handleClaimed(spoolDir, path.join(processingDir, name), handle, logger));
  }

  for (const name of await namesIn(spoolDir)) {
    if (stop()) return result;
    const claimed = path.join(processingDir, name);
    try {
      await fs.promises.rename(path.join(spoolDir, name), claimed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // another ingester took it
      throw error;
    }
    count(await handleClaimed(spoolDir, claimed, handle, logger));
  }
  await removeOrphanTemps(spoolDir, logger);
  return result;
}
