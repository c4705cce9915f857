import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { autostartEntry, autostartFile, launchCommand, setLinuxAutostart } from './login-item-logic.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('start at login on Linux (XDG autostart)', () => {
  it('writes the entry when turned on and removes it when turned off', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-autostart-'));
    const env = { HOME: dir };
    const file = autostartFile(env);
    expect(file).toBe(path.join(dir, '.config', 'autostart', 'kioku.desktop'));
    setLinuxAutostart(env, true, ['/opt/Kioku/kioku-app', '--hidden']);
    expect(fs.readFileSync(file, 'utf8')).toContain('Exec=/opt/Kioku/kioku-app --hidden\n');
    setLinuxAutostart(env, false, []);
    expect(fs.existsSync(file)).toBe(false);
    setLinuxAutostart(env, false, []);
  });

  it('follows XDG_CONFIG_HOME and quotes paths with spaces and specials', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/h' })).toBe('/x/cfg/autostart/kioku.desktop');
    const entry = autostartEntry(['/home/me/My Apps/kioku', '$HOME"x']);
    expect(entry).toContain('Exec="/home/me/My Apps/kioku" "\\$HOME\\"x"\n');
    expect(entry.startsWith('[Desktop Entry]\nType=Application\n')).toBe(true);
  });

  it('starts an AppImage through its own file, and a development build through its entry', () => {
    expect(launchCommand({ APPIMAGE: '/home/me/Kioku.AppImage' }, '/tmp/.mount_x/kioku-app', undefined)).toEqual([
      '/home/me/Kioku.AppImage',
    ]);
    expect(launchCommand({}, '/repo/node_modules/electron/dist/electron', '/repo/dist/main/app/main.js')).toEqual([
      '/repo/node_modules/electron/dist/electron',
      '/repo/dist/main/app/main.js',
    ]);
    expect(launchCommand({}, '/opt/Kioku/kioku-app', undefined)).toEqual(['/opt/Kioku/kioku-app']);
  });
});
