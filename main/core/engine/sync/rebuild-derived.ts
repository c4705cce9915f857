import { describeError } from '../../../../common/errors.js';
import { refreshCallNameCache } from '../role-call/call-names.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { syncPaths } from '../../store/index/index-sync.js';
import { openMemoryIndex, withIndexRecovery } from '../../store/index/memory-index.js';

/**
 * After a merge brought other machines' files in: the index re-reads exactly the files that
 * changed (a merge edits files in place, which folder mtimes alone would miss), and the call-name
 * cache follows the role files. The daemon's parsed-memory cache and prepared loads check file
 * stats on every use, so they follow by themselves. Derived data never fails a sync: it is rebuilt
 * from the files the next time anything reads it.
 */
export function rebuildDerived(config: KiokuConfig, changed: { memory: string[]; roles: string[] }, logger: Logger): void {
  if (changed.memory.length) {
    try {
      const index = openMemoryIndex(config.paths, logger);
      try {
        withIndexRecovery(index, () => syncPaths(index, changed.memory, { recordFolderMtimes: false }));
      } finally {
        index.close();
      }
    } catch (error) {
      logger.warn('sync', `the index was not updated after the sync (it is rebuilt on next use): ${describeError(error)}`);
    }
  }
  if (changed.roles.length || changed.memory.some((file) => file.endsWith('.md'))) {
    try {
      refreshCallNameCache(config);
    } catch (error) {
      logger.warn('sync', `the role name cache was not refreshed: ${describeError(error)}`);
    }
  }
}
