import { formatLocalIso } from '../core/platform/config/clock.js';
import { readSyncRecord } from '../core/engine/sync/sync-state.js';
import { describeError } from '../../common/errors.js';
import type { UiEventMessage } from '../../common/ui-contract.js';
import type { Logger } from '../core/platform/config/log.js';
import { startCore, type CoreDeps, type KiokuCore } from '../core/hosts/daemon/start-core.js';
import { resolveCurrentRole } from '../core/store/roles/role-active.js';
import { readRoleDefinition } from '../core/store/roles/role-repository.js';
import { createTrayController, type TrayController, type TrayPort, type TrayTicker } from '../core/hosts/tray/tray-controller.js';
import type { TrayRole } from '../core/hosts/tray/tray-model.js';
import type { TrayLocale } from '../core/hosts/tray/tray-text.js';
import { createUiApi } from '../core/hosts/ui-api/ui-api.js';
import { configFromStore, storePreferences, type SettingsStore } from './app-settings-logic.js';
import { createIpcDispatcher, type IpcDispatcher } from './ipc-logic.js';
import { createUiEventPump, type UiEventPump } from './ui-events-logic.js';
import { signedSheetCell } from '../core/store/emoji/sheet-avatar.js';

/**
 * Everything the tray app does, without Electron (STYLE.md §Testable shells): the core that
 * `kioku daemon` runs (socket, spool, scheduler), the UI handlers behind IPC, the window's
 * events and the tray. main/app/app-start.ts hands it Electron's tray, window and timers; tests
 * hand it fakes.
 */
export interface AppWindowPort {
  /** Show the window (create it when there is none) and focus it; `route` is a hash route, e.g. `#/status`. */
  show(route?: string): void;
  /** Push one event to the window, if there is one. */
  send(message: UiEventMessage): void;
}

export interface AppHostDeps {
  env: NodeJS.ProcessEnv;
  store: SettingsStore;
  logger: Logger;
  version: string;
  locale: TrayLocale;
  tray: TrayPort;
  window: AppWindowPort;
  ticker: TrayTicker;
  /** setTimeout(run, ~60 ms): coalesces bursts of changes. */
  defer(run: () => void): void;
  /** Tell the system to start the app at login, or not. */
  applyOpenAtLogin(on: boolean): void;
  quit(): void;
  /** Tests: the scheduler's timer and consolidation, the spool poll. */
  core?: Pick<CoreDeps, 'scheduler' | 'spoolPollMs' | 'handleHook' | 'handleQueued'>;
}

export interface AppHost {
  readonly core: KiokuCore;
  readonly dispatch: IpcDispatcher;
  /** start() when the window has loaded, stop() when it closes. */
  readonly events: UiEventPump;
  readonly tray: TrayController;
  stop(): Promise<void>;
}

export function startAppHost(deps: AppHostDeps): AppHost {
  const { logger, store } = deps;
  const config = configFromStore(deps.env, store);
  for (const problem of config.problems) logger.warn('settings', problem.message);
  const preferences = storePreferences(store);

  const core = startCore(config, {
    logger,
    version: deps.version,
    // KIOKU_NO_SCHEDULE=1 (tests, a second machine that only answers hooks) turns it off here too.
    schedule: config.env.KIOKU_NO_SCHEDULE !== '1',
    schedulePaused: preferences.schedulePaused(),
    ...deps.core,
  });
  core.ready.catch((error: unknown) => {
    // Most often another Kioku (`kioku daemon`, a second app with another profile) serves this
    // memory home: it answers the hooks and runs the schedule; this window still edits the files.
    logger.warn('app', `the hook socket and the schedule did not start: ${describeError(error)}`);
  });

  const source = { status: () => core.daemon.status() };
  let tray: TrayController | undefined;
  const events = createUiEventPump({ config, source, logger, send: (message) => deps.window.send(message), defer: deps.defer });
  const api = createUiApi(config, {
    logger,
    status: source.status,
    onChanged: () => {
      events.stateChanged();
      tray?.refresh();
    },
  });

  const activeRole = (): TrayRole | null => {
    const current = resolveCurrentRole(config);
    if (!current) return null;
    try {
      const role = readRoleDefinition(config.paths.roleHome, current.id);
      const sheetIcon = signedSheetCell(config.paths.assetsDir, role.id, role.signature);
      return { id: role.id, name: role.name, emoji: role.emoji, ...(sheetIcon ? { sheetIcon } : {}) };
    } catch {
      return { id: current.id, name: current.id, emoji: '' };
    }
  };

  tray = createTrayController({
    port: deps.tray,
    sleep: { status: () => core.sleepStatus(), subscribe: (listener) => core.onSleepStatus(() => listener()) },
    activeRole,
    scheduleMode: () => core.scheduleMode(),
    sync: () => {
      const record = readSyncRecord(config.paths);
      return record ? { outcome: record.outcome, at: formatLocalIso(new Date(record.at)), conflicts: record.conflicts } : undefined;
    },
    preferences,
    commands: {
      open: () => deps.window.show(),
      showStatus: () => deps.window.show('#/status'),
      sleepNow: () => core.sleepNow(),
      napNow: () => core.napNow(),
      applySchedulePaused: (paused) => (paused ? core.pauseSchedule() : core.resumeSchedule()),
      applyOpenAtLogin: (on) => deps.applyOpenAtLogin(on),
      quit: () => deps.quit(),
    },
    ticker: deps.ticker,
    locale: deps.locale,
    onError: (message) => logger.warn('app', message),
  });
  const offSleep = core.onSleepStatus(() => events.stateChanged());
  // The saved choice is the truth: applied again at each start, so a moved or updated app still starts.
  if (preferences.openAtLogin()) {
    try {
      deps.applyOpenAtLogin(true);
    } catch (error) {
      logger.warn('app', `start at login: ${describeError(error)}`);
    }
  }

  let stopping: Promise<void> | undefined;
  return {
    core,
    dispatch: createIpcDispatcher(api, logger),
    events,
    tray,
    stop: () =>
      (stopping ??= (async () => {
        offSleep();
        tray?.dispose();
        events.stop();
        await core.stop();
      })()),
  };
}
