import { describeError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { syncRole } from '../../store/index/index-sync.js';
import { openMemoryIndex, withIndexRecovery } from '../../store/index/memory-index.js';
import { keepPostingsBuilt } from '../../store/index/word-postings-upkeep.js';

/**
 * After a sleep: the index reads what the sleep wrote, and the word postings are rebuilt when
 * enough memories changed since they were built (issue 17, word-postings.ts). Without it a user
 * who runs no daemon (a server, `kioku sleep` from cron) would keep paying for those changes in
 * every recall until the next `memory reindex`; and the next recall or SessionStart would pay
 * for reading the sleep's files. Sleep is the role's quiet time, so this waits on nobody.
 *
 * The index is a cache: a failure here is returned as a warning and the next recall syncs.
 */
export function refreshIndexAfterSleep(config: KiokuConfig, roles: readonly string[]): string | undefined {
  if (!roles.length) return undefined;
  try {
    const index = openMemoryIndex(config.paths);
    try {
      withIndexRecovery(index, () => {
        for (const role of roles) syncRole(index, role);
      });
      keepPostingsBuilt(index, index.logger);
    } finally {
      index.close();
    }
    return undefined;
  } catch (error) {
    return `the memory index was not refreshed after the sleep (the next recall does it): ${describeError(error)}`;
  }
}
