import type { AppState, DaemonStatusLike, SleepView } from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { isInSleepWindow } from '../../engine/schedule/sleep-window.js';
import { listRoles } from './role-handlers.js';

/**
 * What the UI hosts know about the daemon they run in. `status` is the hook socket's status
 * (daemon.ts), whose `sleep` field is there when the host runs the scheduler.
 */
export interface AppStateSource {
  status(): DaemonStatusLike;
}

/**
 * The sleep state to show. The scheduler's status when there is one; otherwise whether the clock
 * is inside the sleep window (SLEEP-1), which is what a role "sleeping" means to the user even
 * when this host consolidates nothing (KIOKU_NO_SCHEDULE, a second daemon).
 */
export function sleepView(config: KiokuConfig, status: DaemonStatusLike): SleepView {
  const window = { start: config.settings.ROLE_SLEEP_START, end: config.settings.ROLE_SLEEP_END };
  if (status.sleep) return { state: status.sleep.state, source: 'schedule', window, schedule: status.sleep };
  const asleep = isInSleepWindow(window.start, window.end, config.clock.now());
  return { state: asleep ? 'asleep' : 'awake', source: 'window', window, schedule: null };
}

/** DSH-8's `GET /api/state` and the `state.get` channel: read fresh from the files each time. */
export function buildAppState(config: KiokuConfig, source: AppStateSource): AppState {
  const status = source.status();
  const { roles, activeRole } = listRoles(config);
  const sleep = sleepView(config, status);
  return {
    roles,
    activeRole,
    sleeping: sleep.state === 'asleep' || sleep.state === 'napping' || sleep.state === 'consolidating',
    state: sleep.state,
    daemon: {
      running: true,
      pid: status.pid,
      startedAt: status.startedAt,
      version: status.version,
      memoryHome: status.memoryHome,
      roleHome: config.paths.roleHome,
      spoolPending: status.spoolPending,
    },
    sleep,
    now: config.clock.now().toISOString(),
  };
}
