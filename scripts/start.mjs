// `npm start`: launch the Electron tray app where it can start; otherwise say why and run the
// headless mode instead (ARCHITECTURE.md §Machines: no Electron binary, no display).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const kioku = path.join(root, 'bin', 'kioku.js');
const appEntry = path.join(root, 'dist', 'main', 'app', 'main.js');

/**
 * Find the Electron binary without `require('electron')`: since Electron 45 that call downloads
 * the binary when it is missing, which fails (with a stack trace) on machines without network.
 */
function electronBinary() {
  let packageDir;
  try {
    packageDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return { reason: 'Electron is not installed' };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const binary = relative ? path.join(packageDir, 'dist', relative) : '';
  if (!binary || !existsSync(binary)) {
    return { reason: 'the Electron binary has not been downloaded (run `npx install-electron` where the network allows)' };
  }
  return { binary };
}

function hasDisplay() {
  return process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

const electron = existsSync(appEntry) ? electronBinary() : { reason: 'the Electron shell is not built yet' };
const why = electron.reason ?? (hasDisplay() ? undefined : 'there is no display (DISPLAY/WAYLAND_DISPLAY unset)');

if (!why) {
  // The package folder, not the entry file: Electron then reads package.json ("main", name, version).
  const child = spawn(electron.binary, [root], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  process.stderr.write(`kioku: not starting the desktop app: ${why}.\n`);
  // Ask for the daemon's own usage: an unknown command would print the top-level help instead.
  const daemon = spawnSync(process.execPath, [kioku, 'daemon', '--help'], { encoding: 'utf8' });
  if (daemon.status === 0 && daemon.stdout.includes('Usage: kioku daemon')) {
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
