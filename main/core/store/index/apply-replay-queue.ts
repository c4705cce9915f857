import type { MemoryLoadProblem } from '../../../../common/memory.js';
import { isBusyError } from './index-db.js';
import { syncPaths } from './index-sync.js';
import { withIndexRecovery, type MemoryIndex } from './memory-index.js';
import { applyQueuedReplays } from './replay-queue.js';

/**
 * A role's queued replays written into its files (replay-queue.ts), and those files into the
 * index, with their folders marked fresh, as a recall's own write-back does. A queue whose lock
 * is held (a sleep, which applies it itself) is left for later.
 */
export function applyReplayQueue(index: MemoryIndex, role: string): MemoryLoadProblem[] {
  const outcome = applyQueuedReplays(index.memoryHome, role);
  if (outcome.status === 'locked') {
    index.logger.info('recall', `memory lock of ${role} is held by ${outcome.holder}; queued hits are written back later`);
    return [];
  }
  if (!outcome.written.size) return outcome.problems;
  try {
    const synced = withIndexRecovery(index, () => syncPaths(index, [...outcome.written.keys()], { recordFolderMtimes: true }));
    return [...outcome.problems, ...synced.problems];
  } catch (error) {
    if (!isBusyError(error)) throw error;
    index.logger.warn('recall', 'index update skipped: the index is busy (another process is writing it); the next recall catches up');
    return outcome.problems;
  }
}
