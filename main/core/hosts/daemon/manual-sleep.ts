import { describeError } from '../../../../common/errors.js';
import type { SleepRoleResult, SleepRun } from '../../../../common/hook-protocol.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { RunReason, SleepStateMachine } from '../../engine/schedule/sleep-state.js';
import { scheduledRoles } from '../../engine/schedule/schedule-sources.js';
import { inboxCount } from '../../engine/schedule/last-interaction.js';

/**
 * "Sleep now" and "nap now" from the tray (APP-1): the user asked, so neither the sleep window
 * nor the running-assistant check applies (what `kioku sleep --force` does), and the roles are
 * the schedule's (SLEEP-3). A nap takes only roles with something in the inbox: the user wants
 * a short tidy-up, not a pass over every role. The run is shown on the same state machine as the
 * schedule's runs, so the tray and the UI say "consolidating" while it lasts.
 */
export type ManualRunKind = 'sleep' | 'nap';

export interface ManualRunDeps {
  config(): KiokuConfig;
  machine(): SleepStateMachine;
  consolidate(role: string, reason: RunReason): Promise<SleepRoleResult>;
  /** Wait for what the scheduler has in hand, so two runs never overlap. */
  schedulerIdle(): Promise<void>;
}

export interface ManualRunResult {
  kind: ManualRunKind;
  /** null when there was nothing to consolidate. */
  run: Pick<SleepRun, 'ok' | 'roles'> | null;
}

export function manualRunRoles(config: KiokuConfig, kind: ManualRunKind): string[] {
  const roles = scheduledRoles(config);
  return kind === 'sleep' ? roles : roles.filter((role) => inboxCount(config, role) > 0);
}

function failed(role: string, error: unknown): SleepRoleResult {
  return { id: role, ok: false, processed: 0, created: 0, merged: 0, discarded: 0, forgotten: 0, left: 0, error: describeError(error) };
}

export interface ManualRunner {
  run(kind: ManualRunKind): Promise<ManualRunResult>;
}

/** One manual run at a time: a second click while one runs queues behind it. */
export function createManualRunner(deps: ManualRunDeps): ManualRunner {
  let chain: Promise<unknown> = Promise.resolve();
  const runOnce = async (kind: ManualRunKind): Promise<ManualRunResult> => {
    await deps.schedulerIdle();
    const roles = manualRunRoles(deps.config(), kind);
    const machine = deps.machine();
    if (roles.length === 0) {
      machine.noteCheck(kind, kind === 'nap' ? 'asked for a nap: no inbox to consolidate' : 'asked to sleep: no roles');
      return { kind, run: null };
    }
    const results: SleepRoleResult[] = [];
    machine.startRun(kind);
    try {
      for (const role of roles) {
        machine.startRole(role);
        let result: SleepRoleResult;
        try {
          result = await deps.consolidate(role, kind);
        } catch (error) {
          result = failed(role, error);
        }
        results.push(result);
        machine.endRole(result);
      }
    } finally {
      machine.endRun();
    }
    return { kind, run: { ok: results.every((r) => r.ok), roles: results } };
  };
  return {
    run(kind) {
      const task = chain.then(() => runOnce(kind));
      chain = task.catch(() => undefined);
      return task;
    },
  };
}
