// `npm start`: launch the Electron tray app where it can start; otherwise say why and run the
// headless mode instead (ARCHITECTURE.md §Machines: no Electron binary, no display).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const kioku = path.join(root, 'bin', 'kioku.js');
const appEntry = path.join(root, 'dist', 'main', 'app', 'main.js');

function electronBinary() {
  try {
    const binary = require('electron'); // the path of the binary, or a throw when it is missing
    return typeof binary === 'string' && existsSync(binary) ? { binary } : { reason: `the Electron binary is missing (${binary})` };
  } catch (error) {
    return { reason: `Electron is not installed correctly (${String(error.message).split('\n')[0]})` };
  }
}

function hasDisplay() {
  return process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

const electron = electronBinary();
const why = !existsSync(appEntry)
  ? 'the Electron shell is not built yet'
  : electron.reason ?? (hasDisplay() ? undefined : 'there is no display (DISPLAY/WAYLAND_DISPLAY unset)');

if (!why) {
  const child = spawn(electron.binary, [appEntry], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  process.stderr.write(`kioku: not starting the desktop app: ${why}.\n`);
  const daemon = spawnSync(process.execPath, [kioku, 'daemon', '--help'], { encoding: 'utf8' });
  if (daemon.status === 0) {
    process.stderr.write('kioku: running the headless web mode instead (Ctrl+C to stop).\n');
    const child = spawn(process.execPath, [kioku, 'daemon', '--web'], { stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code) => process.exit(code ?? 0));
  } else {
    // Until the daemon lands, Kioku runs as its command: show the roles and how to go on.
    process.stderr.write('kioku: the headless daemon is not part of this build yet; Kioku runs as the `kioku` command.\n\n');
    spawnSync(process.execPath, [kioku, 'role', 'list'], { stdio: 'inherit' });
    process.stdout.write('\nNext: `npx kioku --help`, `npx kioku role new --help`, `npx kioku memory recall --query …`\n');
  }
}
