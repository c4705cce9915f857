import type { SleepRoleResult } from '../../../../common/hook-protocol.js';
import { runBrief } from '../../engine/brief/run-brief.js';
import { loadConfig, type KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { resolveCurrentRole } from '../../store/roles/role-active.js';
import { roleFilesExist } from '../../store/roles/role-repository.js';
import { runSleepInWorker } from '../../engine/sleep/run-in-worker.js';
import { fileScheduleSources } from '../../engine/schedule/schedule-sources.js';
import { nodeScheduleTimer, type ScheduleTimer } from '../../engine/schedule/schedule-timer.js';
import {
  createSleepScheduler,
  type CatchUpRequest,
  type SleepScheduler,
  type SleepSchedulerDeps,
} from '../../engine/schedule/sleep-scheduler.js';

/** One role's consolidation on a worker thread, forced (the caller has judged the window); its own result, or a failed one. */
export async function consolidateInWorker(
  base: KiokuConfig,
  role: string,
  reason: 'sleep' | 'nap' | 'catch-up',
  signal: AbortSignal,
): Promise<SleepRoleResult> {
  const result = await runSleepInWorker({ env: base.env }, { role, force: true, reason }, { signal });
  const failed: SleepRoleResult = {
    id: role,
    ok: false,
    processed: 0,
    created: 0,
    merged: 0,
    discarded: 0,
    forgotten: 0,
    left: 0,
    error: 'the consolidation reported no result for this role',
  };
  return result.roles.find((r) => r.id === role) ?? failed;
}

/**
 * The scheduler as the app and `kioku daemon` run it (APP-1): node-schedule for time, each
 * consolidation in a worker thread, so the hook socket keeps answering.
 * Design notes: docs/design-notes.md, "main/core/hosts/daemon/daemon-scheduler.ts".
 */
export interface DaemonSchedulerOptions {
  timer?: ScheduleTimer;
  consolidate?: SleepSchedulerDeps['consolidate'];
  runBrief?: SleepSchedulerDeps['runBrief'];
}

export function createDaemonScheduler(base: KiokuConfig, logger: Logger, options: DaemonSchedulerOptions = {}): SleepScheduler {
  const config = () => loadConfig(base.env);
  // Stopping the daemon stops a consolidation between two batches (a stuck planner CLI is cut
  // after run-in-worker's grace); what was applied stays applied, the rest waits in the inbox.
  const stopping = new AbortController();
  const consolidate: SleepSchedulerDeps['consolidate'] = async (role, reason) => {
    // force: the scheduler has checked the window and the process list once for the whole run
    // (SLEEP-3: the window and "is an AI running" are checked once per run); a run that crosses the window's
    // end still finishes its roles.
    return consolidateInWorker(base, role, reason, stopping.signal);
  };
  const scheduler = createSleepScheduler({
    clock: base.clock,
    timer: options.timer ?? nodeScheduleTimer(),
    logger,
    ...fileScheduleSources(config),
    consolidate: options.consolidate ?? consolidate,
    runBrief:
      options.runBrief ??
      (async (role) => {
        const result = await runBrief(config(), role, { logger });
        for (const warning of result.warnings) logger.warn('brief', `${role}: ${warning}`);
      }),
  });
  return {
    ...scheduler,
    stop() {
      scheduler.stop();
      stopping.abort('the daemon is stopping');
    },
  };
}

/**
 * CTX-8 from a SessionStart the daemon answered: the role that session runs as (its terminal's
 * ROLE_NAME, else `.active`). Undefined when no role resolves — nothing to catch up.
 */
export function requestSessionCatchUp(scheduler: SleepScheduler, config: KiokuConfig): CatchUpRequest | undefined {
  let role: string | undefined;
  try {
    role = resolveCurrentRole(config)?.id;
  } catch {
    return undefined; // a broken ROLE_NAME/.active: the SessionStart answer already says so
  }
  if (!role || !roleFilesExist(config.paths.roleHome, role)) return undefined;
  return scheduler.requestCatchUp(role);
}
