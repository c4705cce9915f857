import { describeError } from '../../../../common/errors.js';
import type { SleepStatus } from '../../../../common/hook-protocol.js';
import {
  trayView,
  type ScheduleMode,
  type TrayAction,
  type TrayIconName,
  type TrayMenuItem,
  type TrayRole,
  type TraySync,
} from './tray-model.js';
import type { TrayLocale } from './tray-text.js';

/**
 * Keeps a tray in step with the sleep state and the active role (APP-1, SLEEP-7), and turns its
 * menu clicks into commands. Signal's SystemTrayService habit (STYLE.md §Testable shells): the
 * tray, the timer and every effect are injected, so this runs with a fake tray and a fake clock
 * in tests and with Electron's Tray in main/app/ — where only a few lines copy the view over.
 */
export interface TrayPort {
  setImage(icon: TrayIconName): void;
  setToolTip(text: string): void;
  /** Replace the menu; a click on an action item calls `onAction` with its action. */
  setMenu(items: readonly TrayMenuItem[], onAction: (action: TrayAction) => void): void;
}

export interface TraySleepSource {
  status(): Pick<SleepStatus, 'state' | 'role' | 'lastRun'>;
  /** Called on every change of the sleep status (state, role being consolidated, last run). */
  subscribe(listener: () => void): () => void;
}

/** The user's tray choices, kept across restarts (the app's settings store). */
export interface TrayPreferences {
  schedulePaused(): boolean;
  setSchedulePaused(paused: boolean): void;
  openAtLogin(): boolean;
  setOpenAtLogin(on: boolean): void;
}

export interface TrayCommands {
  open(): void;
  showStatus(): void;
  sleepNow(): Promise<unknown>;
  napNow(): Promise<unknown>;
  /** Stop or restart the scheduler now (the preference is saved by the controller). */
  applySchedulePaused(paused: boolean): void;
  /** Tell the system (app.setLoginItemSettings). */
  applyOpenAtLogin(on: boolean): void;
  quit(): void;
}

/** setInterval, injected: tests tick it by hand. */
export interface TrayTicker {
  every(ms: number, tick: () => void): () => void;
}

export interface TrayControllerDeps {
  port: TrayPort;
  sleep: TraySleepSource;
  /** Read fresh at every refresh: `.active` and ROLE_NAME change behind the app's back. */
  activeRole(): TrayRole | null;
  scheduleMode(): ScheduleMode;
  preferences: TrayPreferences;
  commands: TrayCommands;
  ticker: TrayTicker;
  locale: TrayLocale;
  /** A command that failed: logged by the host; the tray never throws into the event loop. */
  onError(message: string): void;
  /** The last sync through git, read fresh at every refresh (absent: the home does not sync). */
  sync?(): TraySync | undefined;
  /** How often the role and the window edges are looked at without a push (default 30 s). */
  refreshMs?: number;
}

export interface TrayController {
  /** Recompute the view and update what changed. */
  refresh(): void;
  /** What a menu click does (also what the port's onAction calls). */
  handle(action: TrayAction): void;
  dispose(): void;
}

export function createTrayController(deps: TrayControllerDeps): TrayController {
  const { port, preferences, commands } = deps;
  let manualRunPending = false;
  let disposed = false;
  let shown: { icon?: string; tooltip?: string; menu?: string } = {};

  const activeRole = (): TrayRole | null => {
    try {
      return deps.activeRole();
    } catch {
      // A broken `.active` or ROLE_NAME: the tray says "no active role"; status and the UI say why.
      return null;
    }
  };

  const sync = (): TraySync | undefined => {
    try {
      return deps.sync?.();
    } catch {
      return undefined; // an unreadable record: the tray shows no sync, never fails
    }
  };

  const syncField = (): { sync?: TraySync } => {
    const value = sync();
    return value ? { sync: value } : {};
  };

  const refresh = () => {
    if (disposed) return;
    const view = trayView({
      sleep: deps.sleep.status(),
      activeRole: activeRole(),
      schedule: deps.scheduleMode(),
      manualRunPending,
      openAtLogin: preferences.openAtLogin(),
      locale: deps.locale,
      ...syncField(),
    });
    // Only what changed: rebuilding a menu that is open closes it on some desktops.
    if (view.icon !== shown.icon) port.setImage(view.icon);
    if (view.tooltip !== shown.tooltip) port.setToolTip(view.tooltip);
    const menuKey = JSON.stringify(view.menu);
    if (menuKey !== shown.menu) port.setMenu(view.menu, handle);
    shown = { icon: view.icon, tooltip: view.tooltip, menu: menuKey };
  };

  const guarded = (what: string, effect: () => void) => {
    try {
      effect();
    } catch (error) {
      deps.onError(`tray: ${what} failed: ${describeError(error)}`);
    }
  };

  const runManually = (what: string, run: () => Promise<unknown>) => {
    if (manualRunPending) return;
    manualRunPending = true;
    refresh();
    let running: Promise<unknown>;
    try {
      running = run();
    } catch (error) {
      running = Promise.reject(error);
    }
    running
      .catch((error: unknown) => deps.onError(`tray: ${what} failed: ${describeError(error)}`))
      .finally(() => {
        manualRunPending = false;
        refresh();
      });
  };

  function handle(action: TrayAction): void {
    if (disposed) return;
    switch (action) {
      case 'open':
        return guarded('open', () => commands.open());
      case 'status':
        return guarded('status', () => commands.showStatus());
      case 'sleepNow':
        return runManually('sleep now', () => commands.sleepNow());
      case 'napNow':
        return runManually('nap now', () => commands.napNow());
      case 'toggleSchedule': {
        const mode = deps.scheduleMode();
        if (mode === 'off') return;
        const paused = mode === 'running';
        // Saved first: if the scheduler cannot be stopped the choice still holds at the next start.
        guarded('saving the schedule choice', () => preferences.setSchedulePaused(paused));
        guarded(paused ? 'pausing the schedule' : 'resuming the schedule', () => commands.applySchedulePaused(paused));
        return refresh();
      }
      case 'toggleOpenAtLogin': {
        const on = !preferences.openAtLogin();
        guarded('saving start at login', () => preferences.setOpenAtLogin(on));
        guarded('start at login', () => commands.applyOpenAtLogin(on));
        return refresh();
      }
      case 'quit':
        return guarded('quit', () => commands.quit());
    }
  }

  const unsubscribe = deps.sleep.subscribe(refresh);
  const stopTicking = deps.ticker.every(deps.refreshMs ?? 30_000, refresh);
  refresh();

  return {
    refresh,
    handle,
    dispose() {
      disposed = true;
      unsubscribe();
      stopTicking();
    },
  };
}
