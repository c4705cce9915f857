import { app } from 'electron';
import { launchCommand, setLinuxAutostart } from './login-item-logic.js';

/** Started at login: no window, only the tray. */
export const HIDDEN_ARG = '--hidden';

/** Start at login (opt-in, APP-1): Electron on macOS and Windows, an XDG autostart entry on Linux. */
export function applyOpenAtLogin(on: boolean, appEntry: string | undefined): void {
  if (process.platform === 'linux') {
    setLinuxAutostart(process.env, on, [...launchCommand(process.env, process.execPath, appEntry), HIDDEN_ARG]);
    return;
  }
  app.setLoginItemSettings({ openAtLogin: on, args: [HIDDEN_ARG] });
}

export function startedHidden(argv: readonly string[]): boolean {
  return argv.includes(HIDDEN_ARG) || (process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true);
}
