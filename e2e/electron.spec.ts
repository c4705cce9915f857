import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../test/helpers/temp-home.js';
import { seedSampleRoles } from './helpers/seed-home.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const appEntry = path.join(root, 'dist', 'main', 'app', 'main.js');

/**
 * Where the Electron binary is, read from electron/path.txt without `require('electron')`: since
 * Electron 45 that call downloads the binary when it is missing (no network here).
 */
function electronBinary(): { binary: string } | { reason: string } {
  let packageDir: string;
  try {
    packageDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : '';
  const binary = relative ? path.join(packageDir, 'dist', relative) : '';
  if (!binary || !fs.existsSync(binary))
    return {
      reason: `the Electron binary is not downloaded (${pathFile} missing or pointing nowhere; run \`npx install-electron\` where the network allows)`,
    };
  if (!fs.existsSync(appEntry)) return { reason: `the Electron shell is not built (${appEntry} is missing)` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return { reason: 'there is no display (DISPLAY/WAYLAND_DISPLAY unset)' };
  return { binary };
}

const found = electronBinary();
if ('reason' in found) console.warn(`e2e electron: skipped: ${found.reason}`);

describe.skipIf('reason' in found)('the Electron app', () => {
  let home: TempHome | undefined;
  afterEach(() => home?.cleanup());

  it('opens a window that shows the roles of the home through the preload bridge', async () => {
    if ('reason' in found) return;
    home = makeTempHome({ KIOKU_NO_SCHEDULE: '1' });
    seedSampleRoles(home, 2);
    const app = await electron.launch({
      executablePath: found.binary,
      args: [appEntry],
      env: { ...home.env, ELECTRON_DISABLE_SECURITY_WARNINGS: '1' } as Record<string, string>,
    });
    try {
      const window = await app.firstWindow();
      await window.locator('li[data-role-id="ENGINEER01"]').waitFor();
      expect(await window.evaluate(() => typeof (window as unknown as { kioku?: unknown }).kioku)).toBe('object');
      expect(await window.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
    } finally {
      await app.close();
    }
  });
});
