import { describeError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { SleepResult } from './sleep-result.js';
import { readSyncConfig } from '../sync/sync-config.js';
import { syncNow } from '../sync/sync-now.js';
import { isRepo } from '../sync/sync-repo.js';

/**
 * After a consolidation on a synced home, publish it at once: the new memories, the archived
 * inbox and the renewed lease reach the other machines before they look at the lease again.
 * Never fails the sleep: what was consolidated is committed locally and goes with the next sync.
 */
export async function syncAfterSleep(config: KiokuConfig, result: SleepResult): Promise<{ outcome: string; message: string } | undefined> {
  const sync = readSyncConfig(config.paths);
  if (!sync?.approvedAt || !isRepo(config.paths.memoryHome)) return undefined;
  if (!result.roles.some((role) => !role.elsewhere)) return undefined;
  try {
    const run = await syncNow(config, { lockWaitMs: 60_000 });
    return { outcome: run.outcome, message: run.message };
  } catch (error) {
    return { outcome: 'error', message: describeError(error) };
  }
}
