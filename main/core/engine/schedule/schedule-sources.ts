import { parseLooseDate } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { listMemoryRoles } from '../../store/memory/memory-layout.js';
import { readMemoryState } from '../../store/memory/memory-state.js';
import { resolveCurrentRole } from '../../store/roles/role-active.js';
import { listRoleIds, roleFilesExist } from '../../store/roles/role-repository.js';
import { findAssistantProcesses, listProcesses } from './assistant-processes.js';
import { inboxCount, lastInteraction } from './last-interaction.js';
import type { SleepSchedulerDeps } from './sleep-scheduler.js';

/**
 * The roles a schedule serves (SLEEP-3, seed 000 §排程涵蓋所有角色): every role in the role home by
 * default — "修正前的錯誤": a schedule pinned to the active role left two roles never consolidated,
 * with no error anywhere. ROLE_SLEEP_ALL_ROLES=0 serves ROLE_NAME / `.active` only (when its files exist).
 */
export function scheduledRoles(config: KiokuConfig): string[] {
  if (config.settings.ROLE_SLEEP_ALL_ROLES) return allKnownRoles(config);
  let current: string | undefined;
  try {
    current = resolveCurrentRole(config)?.id;
  } catch {
    return []; // a broken .active: `kioku status` says so; the schedule has nobody to serve
  }
  return current && roleFilesExist(config.paths.roleHome, current) ? [current] : [];
}

/**
 * Roles with definition files or a memory folder — the same set as sleep/run-sleep.ts sleepRoles
 * (an imported role's inbox must not pile up unseen either), without loading the planners.
 */
export function allKnownRoles(config: KiokuConfig): string[] {
  return [...new Set([...listRoleIds(config.paths.roleHome), ...listMemoryRoles(config.paths.memoryHome)])].sort();
}

export function lastSleepOf(config: KiokuConfig, role: string): Date | undefined {
  return parseLooseDate(readMemoryState(config.paths.memoryHome, role).state.last_sleep);
}

/** What the scheduler reads about the world, from the files of `config()` (re-read at each check). */
export function fileScheduleSources(
  config: () => KiokuConfig,
): Pick<SleepSchedulerDeps, 'settings' | 'roles' | 'inboxCount' | 'lastInteraction' | 'lastSleep' | 'assistantProcesses'> {
  return {
    settings: () => config().settings,
    roles: () => scheduledRoles(config()),
    inboxCount: (role) => inboxCount(config(), role),
    lastInteraction: (role) => lastInteraction(config(), role)?.at,
    lastSleep: (role) => lastSleepOf(config(), role),
    assistantProcesses: () => {
      try {
        return findAssistantProcesses(listProcesses()).map((p) => `${p.assistant} (pid ${p.pid})`);
      } catch {
        // Cannot list processes (no ps): sleeping anyway loses nothing — consolidation is
        // crash-safe and takes the role's memory lock — while never sleeping would.
        return [];
      }
    },
  };
}
