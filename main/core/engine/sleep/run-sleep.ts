import { describeError } from '../../../../common/errors.js';
import { explainInvalidRoleId } from '../../../../common/role-id.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { listMemoryRoles } from '../../store/memory/memory-layout.js';
import { resolveCurrentRole } from '../../store/roles/role-active.js';
import { listRoleIds } from '../../store/roles/role-repository.js';
import { isInSleepWindow } from '../schedule/sleep-window.js';
import { acquireSleepLease } from '../sync/sync-lease.js';
import { syncAfterSleep } from './sync-after-sleep.js';
import { refreshIndexAfterSleep } from './index-after-sleep.js';
import { choosePlanner, withDefaultLimits } from './choose-planner.js';
import { consolidateRole } from './consolidate-role.js';
import { emptyRoleResult, type SleepProgress, type SleepResult } from './sleep-result.js';
import type { Planner } from './sleep-plan.js';

/**
 * A consolidation run over one or more roles, one after another (SLEEP-3).
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/run-sleep.ts".
 */
export type SleepReason = 'manual' | 'sleep' | 'nap' | 'catch-up';

export interface RunSleepOptions {
  role?: string;
  roles?: readonly string[];
  force?: boolean;
  reason: SleepReason;
  /** Default: chosen from ROLE_CLI (choose-planner.ts). */
  planner?: Planner;
  signal?: AbortSignal;
  onProgress?: (event: SleepProgress) => void;
  lockWaitMs?: number;
}

export function sleepRoles(config: KiokuConfig): string[] {
  if (config.settings.ROLE_SLEEP_ALL_ROLES) {
    return [...new Set([...listRoleIds(config.paths.roleHome), ...listMemoryRoles(config.paths.memoryHome)])].sort();
  }
  const current = resolveCurrentRole(config);
  return current ? [current.id] : [];
}

function rolesFor(config: KiokuConfig, options: RunSleepOptions): string[] {
  if (options.roles) return [...options.roles];
  if (options.role) return [options.role];
  const named = config.settings.ROLE_NAME?.trim();
  if (options.reason === 'manual' && named) return [named];
  return sleepRoles(config);
}

export function awakeNow(config: KiokuConfig): boolean {
  return !isInSleepWindow(config.settings.ROLE_SLEEP_START, config.settings.ROLE_SLEEP_END, config.clock.now());
}

export async function runSleep(config: KiokuConfig, options: RunSleepOptions): Promise<SleepResult> {
  const anyTime = options.force || options.reason === 'nap' || options.reason === 'catch-up';
  if (!anyTime && awakeNow(config)) return { roles: [], awake: true };
  const roles = rolesFor(config, options);
  const result: SleepResult = { roles: [] };
  if (roles.length === 0) return result;
  let planner: Planner | undefined = options.planner ? withDefaultLimits(options.planner) : undefined;
  for (const role of roles) {
    const problem = explainInvalidRoleId(role);
    if (problem) {
      result.roles.push({ ...emptyRoleResult(role), ok: false, error: problem });
      continue;
    }
    if (options.signal?.aborted) {
      result.roles.push({ ...emptyRoleResult(role), ok: false, error: `not started: ${describeError(options.signal.reason)}` });
      continue;
    }
    // A home synced through git: one machine sleeps a role at a time (sync-lease.ts).
    const lease = await acquireSleepLease(config, role);
    if (!lease.ok) {
      result.roles.push({ ...emptyRoleResult(role), warnings: [lease.reason], ...(lease.holder ? { elsewhere: lease.holder } : {}) });
      continue;
    }
    try {
      planner ??= await choosePlanner(config);
      result.roles.push(
        await consolidateRole(config, role, {
          planner,
          reason: options.reason,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          ...(options.lockWaitMs !== undefined ? { lockWaitMs: options.lockWaitMs } : {}),
        }),
      );
    } catch (error) {
      // One role's failure (even choosing the planner) is reported; the next role still sleeps.
      result.roles.push({ ...emptyRoleResult(role), ok: false, error: describeError(error) });
    }
  }
  const slept = result.roles.filter((role) => role.ok && !role.elsewhere);
  const indexProblem = refreshIndexAfterSleep(
    config,
    slept.map((role) => role.id),
  );
  if (indexProblem) slept[0]?.warnings.push(indexProblem);
  const synced = await syncAfterSleep(config, result);
  if (synced) result.sync = synced;
  return result;
}
