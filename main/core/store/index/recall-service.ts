import path from 'node:path';
import type { RecallRequest } from '../../../../common/hook-protocol.js';
import { fixedClock } from '../../platform/config/clock.js';
import type { KiokuPaths } from '../../platform/config/paths.js';
import type { Logger } from '../../platform/config/log.js';
import type { RecallAnswer } from '../../platform/ipc/recall-wire.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { prepareRecall } from './recall.js';
import { recallQueryInStoredScript } from './recall-query-script.js';

/**
 * The daemon's side of `kioku memory recall` (issue 17): one index kept open for the daemon's
 * life, OpenCC loaded once, and the hit write-back done after the answer is sent, off the CLI's
 * path. A write-back still pending when the next recall comes is done first, so every answer
 * counts the ones before it, as recalls one after another in the CLI do.
 */
export interface RecallService {
  recall(request: RecallRequest): Promise<RecallAnswer>;
  /** Finish a pending write-back and close the index. */
  close(): void;
}

export function createRecallService(paths: Pick<KiokuPaths, 'indexFile' | 'memoryHome'>, logger: Logger): RecallService {
  let index: MemoryIndex | undefined;
  let pending: (() => void) | undefined;
  const finishPending = () => pending?.();

  return {
    async recall(request) {
      if (path.resolve(request.memoryHome) !== path.resolve(paths.memoryHome)) {
        throw new Error(`this app serves the memory home ${paths.memoryHome}, not ${request.memoryHome}`);
      }
      const query = await recallQueryInStoredScript(request.query);
      finishPending();
      index ??= openMemoryIndex(paths, logger);
      const clock = fixedClock(new Date(request.nowMs));
      const prepared = prepareRecall(index, {
        role: request.role,
        query,
        limit: request.limit,
        clock,
        replayedAt: request.replayedAt,
        ...(request.project ? { project: request.project } : {}),
      });
      let settled = false;
      const writeBack = () => {
        if (settled) return;
        settled = true;
        if (pending === writeBack) pending = undefined;
        for (const problem of prepared.writeBack()) logger.warn('recall', `${problem.path}: ${problem.message}`);
      };
      pending = writeBack;
      return {
        result: prepared.result,
        delivered(sent) {
          if (!sent) {
            settled = true;
            if (pending === writeBack) pending = undefined;
            prepared.release();
            return;
          }
          // After this turn of the event loop: the reply is on its way before the files are written.
          setImmediate(writeBack);
        },
      };
    },
    close() {
      finishPending();
      index?.close();
      index = undefined;
    },
  };
}
