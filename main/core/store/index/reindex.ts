import { KiokuError } from '../../../../common/errors.js';
import { listMemoryRoles, roleMemoryDir } from '../memory/memory-layout.js';
import { isBusyError } from './index-db.js';
import { rebuildIndex, type ProgressCallback, type SyncResult } from './index-sync.js';
import { withIndexRecovery, type MemoryIndex } from './memory-index.js';

/** PM-6 `reindex`: rebuild the index of some roles, or of every role, from the files. */
export interface ReindexReport extends SyncResult {
  roles: string[];
  seconds: number;
}

export function reindexMemories(index: MemoryIndex, roles: string[] | 'all', onProgress?: ProgressCallback): ReindexReport {
  // process.hrtime, not perf_hooks: this module is in the recall without the daemon, where
  // loading perf_hooks (eleven modules, about a millisecond) would be paid by every recall.
  const started = process.hrtime.bigint();
  for (const role of roles === 'all' ? [] : roles) roleMemoryDir(index.memoryHome, role); // rejects a bad ID before any work
  let result: SyncResult;
  try {
    result = withIndexRecovery(index, () => rebuildIndex(index, roles, onProgress));
  } catch (error) {
    if (!isBusyError(error)) throw error;
    throw new KiokuError('LOCKED', `the memory index ${index.file} is being written by another process`, {
      path: index.file,
      cause: error,
      hint: 'another reindex is probably running; try again when it has finished',
    });
  }
  return {
    ...result,
    roles: roles === 'all' ? listMemoryRoles(index.memoryHome) : roles,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
  };
}
