import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleEntry } from '../../test/helpers/bundle-entry.js';
import { makeTempHome, type TempHome } from '../../test/helpers/temp-home.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const rendererIndex = path.join(root, 'dist', 'renderer', 'index.html');

export interface RunningDaemon {
  home: TempHome;
  /** `http://127.0.0.1:PORT/?token=…`, as printed. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Where the daemon came from: dist/ (what ships) or a bundle of the sources. */
  from: 'dist' | 'source';
  stop(): Promise<void>;
}

/**
 * dist/ when it has the web server (after `npm run build`, as in CI: test what ships); else the
 * sources bundled into .tmp. KIOKU_E2E_DAEMON=dist|source forces one. The UI itself is always
 * dist/renderer (`npx vite build` makes it without touching the rest of dist/).
 */
function daemonCommand(): { args: string[]; from: 'dist' | 'source' } {
  const wanted = process.env.KIOKU_E2E_DAEMON;
  const distReady = fs.existsSync(path.join(root, 'dist', 'main', 'core', 'hosts', 'ui-api', 'web-server.js'));
  if (wanted === 'dist' || (wanted !== 'source' && distReady)) return { args: [path.join(root, 'bin', 'kioku.js')], from: 'dist' };
  const entry = bundleEntry('e2e/helpers/kioku-entry.ts');
  // Consolidation ("Sleep now") runs on a worker thread whose script must sit beside the entry, as
  // `npm run build` puts sleep-worker.js beside run-in-worker.js (run-in-worker.ts).
  fs.copyFileSync(bundleEntry('main/core/engine/sleep/sleep-worker.ts'), path.join(path.dirname(entry), 'sleep-worker.mjs'));
  return { args: [entry], from: 'source' };
}

function waitForUrl(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const match = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/m.exec(buffer);
      if (match) {
        child.stdout?.off('data', onData);
        resolve(match[1]!);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`kioku daemon --web exited (${code ?? signal}) before printing its URL:\n${stderr()}`)),
    );
    // Readiness is the printed URL, not a delay; this only stops a hung start from hanging CI.
    const timer = setTimeout(() => reject(new Error(`kioku daemon --web printed no URL within 60 s:\n${stderr()}`)), 60_000);
    timer.unref();
  });
}

/**
 * A real `kioku daemon --web --port 0` on a fresh temp home (KIOKU_NO_SCHEDULE=1: no sleep runs
 * behind the test's back). `prepare` may write roles and memories before it starts.
 */
export async function startDaemon(
  options: { env?: NodeJS.ProcessEnv; prepare?: (home: TempHome) => void | Promise<void> } = {},
): Promise<RunningDaemon> {
  if (!fs.existsSync(rendererIndex)) throw new Error(`${rendererIndex} is missing: run \`npx vite build\` (or \`npm run build\`) first`);
  const home = makeTempHome({ KIOKU_NO_SCHEDULE: '1', ...options.env });
  let child: ChildProcess | undefined;
  try {
    await options.prepare?.(home);
    const { args, from } = daemonCommand();
    child = spawn(process.execPath, [...args, 'daemon', '--web', '--port', '0'], { env: home.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const url = await waitForUrl(child, () => stderr);
    const parsed = new URL(url);
    const running = child;
    return {
      home,
      url,
      origin: parsed.origin,
      port: Number(parsed.port),
      token: parsed.searchParams.get('token') ?? '',
      from,
      stop: async () => {
        await stopChild(running);
        home.cleanup();
      },
    };
  } catch (error) {
    if (child) await stopChild(child);
    home.cleanup();
    throw error;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(force);
}
