import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import { memoriesFromFiles } from './file-mode-memories.js';

/**
 * After a sleep or nap run from the command line (cron, a server, no app): each role's next
 * SessionStart load is prepared on disk now, while nobody waits, instead of by the first hook of
 * the morning (issue 17: "whoever computes a role's next load … also writes it"). The app's
 * daemon does this itself once its watchers see the sleep's changes (load-warmer.ts).
 * Never throws: the sleep is done whatever happens here; a role that cannot be prepared is logged.
 */
export function prepareNextLoads(config: KiokuConfig, roleIds: readonly string[], logger: Logger): void {
  const now = config.clock.now();
  for (const roleId of roleIds) {
    try {
      // For no project: the shares of projects are fitted ahead all the same (prepared-load-fits.ts).
      memoriesFromFiles(config, readRoleDefinition(config.paths.roleHome, roleId), now, logger, undefined);
    } catch (error) {
      logger.info('context', `the next load of ${roleId} is prepared by its first hook instead: ${(error as Error).message}`);
    }
  }
}
