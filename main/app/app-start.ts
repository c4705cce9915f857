import path from 'node:path';
import { app, ipcMain, session } from 'electron';
import { createLogger } from '../core/platform/config/log.js';
import { loadConfig } from '../core/platform/config/config.js';
import { trayIconFile } from '../core/hosts/tray/tray-icons.js';
import { trayLocaleFor } from '../core/hosts/tray/tray-text.js';
import { findRendererDir } from '../core/hosts/ui-api/renderer-dir.js';
import { startAppHost, type AppHost } from './app-host-logic.js';
import { appPaths } from './app-paths.js';
import { registerUiHandlers } from './electron-ipc.js';
import { applyOpenAtLogin, startedHidden } from './electron-login-item.js';
import { secureSession } from './electron-session.js';
import { openElectronSettings } from './electron-settings.js';
import { createElectronTray } from './electron-tray.js';
import { createWindowManager } from './electron-window.js';

/**
 * The tray app, once Electron is ready: Electron's tray, window, timers and settings store handed
 * to the Electron-free host (app-host-logic.ts), which runs the same core as `kioku daemon`.
 */
export function startApp(): AppHost {
  const paths = appPaths();
  const env = process.env;
  // The log folder follows the memory home of the environment, like every other Kioku process.
  const base = loadConfig(env, { stored: {} });
  const logger = createLogger({ clock: base.clock, file: path.join(base.paths.logsDir, 'kioku.log'), stderr: !app.isPackaged });
  const store = openElectronSettings(env, logger);
  secureSession(session.defaultSession, findRendererDir(), logger);

  let host: AppHost | undefined;
  const window = createWindowManager({
    preloadFile: paths.preloadFile,
    iconFile: paths.windowIcon,
    logger,
    locale: trayLocaleFor(app.getLocale()),
    onLoaded: () => host?.events.start(),
    onClosed: () => host?.events.stop(),
  });
  const tray = createElectronTray(
    (icon) => trayIconFile(paths.resourcesDir, icon, process.platform),
    () => window.show(),
  );
  const appEntry = app.isPackaged ? undefined : process.argv[1];

  const started = startAppHost({
    env,
    store,
    logger,
    version: app.getVersion(),
    locale: trayLocaleFor(app.getLocale()),
    tray,
    window,
    ticker: {
      every: (ms, tick) => {
        const timer = setInterval(tick, ms);
        return () => clearInterval(timer);
      },
    },
    defer: (run) => void setTimeout(run, 60),
    applyOpenAtLogin: (on) => applyOpenAtLogin(on, appEntry),
    quit: () => app.quit(),
  });
  host = started;
  registerUiHandlers(ipcMain, started.dispatch);

  app.on('second-instance', () => window.show());
  // macOS: a click on the Dock icon.
  app.on('activate', () => window.show());
  // A tray app: closing the window leaves it running; Quit is in the tray menu.
  app.on('window-all-closed', () => undefined);
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    // The socket file removed and the event in hand finished before the process goes.
    void started.stop().finally(() => {
      stopped = true;
      tray.destroy();
      app.quit();
    });
  });
  if (!startedHidden(process.argv)) window.show();
  return started;
}
