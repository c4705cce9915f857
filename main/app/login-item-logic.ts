import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomicSync } from '../core/platform/fs/atomic-write.js';

/**
 * Start at login, opt-in (APP-1). On macOS and Windows Electron's app.setLoginItemSettings does
 * it; on Linux it does nothing, so the app writes the XDG autostart entry itself
 * (`$XDG_CONFIG_HOME/autostart/kioku.desktop`, which GNOME, KDE, Xfce and others read).
 */
export function autostartFile(env: NodeJS.ProcessEnv): string {
  const configHome = env.XDG_CONFIG_HOME?.trim() || path.join(env.HOME || os.homedir(), '.config');
  return path.join(configHome, 'autostart', 'kioku.desktop');
}

/** Quote one Exec argument per the Desktop Entry spec (double quotes; \ " ` $ escaped). */
function quoteExecArg(arg: string): string {
  return /^[A-Za-z0-9_\-./=:,+@%]+$/.test(arg) ? arg : `"${arg.replace(/([\\"`$])/g, '\\$1')}"`;
}

export function autostartEntry(command: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Kioku',
    'Comment=Kioku (記憶): role and long-term memory for AI coding assistants',
    `Exec=${command.map(quoteExecArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * What starts the app again: an AppImage must be started through its own file ($APPIMAGE), not
 * the binary inside its temporary mount, which is gone after the session.
 */
export function launchCommand(env: NodeJS.ProcessEnv, execPath: string, appEntry: string | undefined): string[] {
  if (env.APPIMAGE) return [env.APPIMAGE];
  return appEntry ? [execPath, appEntry] : [execPath];
}

export function setLinuxAutostart(env: NodeJS.ProcessEnv, on: boolean, command: readonly string[]): void {
  const file = autostartFile(env);
  if (on) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomicSync(file, autostartEntry(command));
  } else {
    fs.rmSync(file, { force: true });
  }
}
