import path from 'node:path';
import type { RecallRequest } from '../../../../common/hook-protocol.js';
import { fixedClock } from '../../platform/config/clock.js';
import type { KiokuPaths } from '../../platform/config/paths.js';
import type { Logger } from '../../platform/config/log.js';
import type { RecallAnswer } from '../../platform/ipc/recall-wire.js';
import { applyReplayQueue } from './apply-replay-queue.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { prepareRecall } from './recall.js';
import { recallQueryInStoredScript } from './recall-query-script.js';
import { queuedBytes } from './replay-queue.js';
import { keepPostingsBuilt } from './word-postings-upkeep.js';

/**
 * The daemon's side of `kioku memory recall` (issue 17): one index kept open for the daemon's
 * life, OpenCC loaded once, and the hits queued as the CLI without the daemon queues them
 * (replay-queue.ts), so both print the same bytes. The queue is applied once recalls pause
 * (APPLY_AFTER_MS), at close, and by a sleep: a burst of recalls costs one write-back, and none
 * of them waits behind the previous one's (300 ms at 100,000 memories, re-listing the folders).
 */
export interface RecallService {
  recall(request: RecallRequest): Promise<RecallAnswer>;
  /** Apply what is queued and close the index. */
  close(): void;
}

/** How long after the last recall the queued hits are written into the files. */
export const APPLY_AFTER_MS = 2_000;

export function createRecallService(
  paths: Pick<KiokuPaths, 'indexFile' | 'memoryHome'>,
  logger: Logger,
  applyAfterMs = APPLY_AFTER_MS,
): RecallService {
  let index: MemoryIndex | undefined;
  const queued = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const apply = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!index) return;
    for (const role of queued) {
      for (const problem of applyReplayQueue(index, role)) logger.warn('recall', `${problem.path}: ${problem.message}`);
      // A queue whose lock was held stays queued for the next pause (or the sleep holding it).
      if (queuedBytes(paths.memoryHome, role) === 0) queued.delete(role);
    }
  };
  /** Once recalls pause: the queued hits, then the word postings if enough changed since they were built. */
  const upkeep = () => {
    apply();
    if (index) keepPostingsBuilt(index, logger);
  };
  const applySoon = (role?: string) => {
    if (role !== undefined) queued.add(role);
    clearTimeout(timer);
    timer = setTimeout(upkeep, applyAfterMs);
    timer.unref();
  };

  return {
    async recall(request) {
      if (path.resolve(request.memoryHome) !== path.resolve(paths.memoryHome)) {
        throw new Error(`this app serves the memory home ${paths.memoryHome}, not ${request.memoryHome}`);
      }
      const query = await recallQueryInStoredScript(request.query);
      index ??= openMemoryIndex(paths, logger);
      const prepared = prepareRecall(index, {
        role: request.role,
        query,
        limit: request.limit,
        clock: fixedClock(new Date(request.nowMs)),
        replayedAt: request.replayedAt,
        writeBack: 'queue',
        ...(request.project ? { project: request.project } : {}),
      });
      // Queued by recalls made while this daemon was not running: applied with this one's.
      applySoon(queuedBytes(paths.memoryHome, request.role) > 0 ? request.role : undefined);
      return {
        result: prepared.result,
        delivered(sent) {
          if (!sent) return prepared.release(); // an answer not received is not counted
          for (const problem of prepared.writeBack()) logger.warn('recall', `${problem.path}: ${problem.message}`);
          if (prepared.result.writeBack === 'written') applySoon(request.role);
        },
      };
    },
    close() {
      apply();
      index?.close();
      index = undefined;
    },
  };
}
