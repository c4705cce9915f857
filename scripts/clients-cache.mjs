// The real assistants the client suite (`npm run test:clients`) drives, installed at their pinned
// versions into a cache outside the project (about 900 MB: never project dependencies). One
// folder per package and version, so a version bump installs beside the old one instead of
// mixing with it, and a second run finds everything in place and downloads nothing.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** name → { package, version, bin }: the pins, shared with the tests (test/clients/clients.json). */
export const CLIENTS = JSON.parse(readFileSync(path.join(root, 'test', 'clients', 'clients.json'), 'utf8'));

export function cacheRoot(env = process.env) {
  return env.KIOKU_CLIENTS_CACHE || path.join(os.homedir(), '.cache', 'kioku-clients');
}

export function clientDir(name, env = process.env) {
  const client = CLIENTS[name];
  return path.join(cacheRoot(env), `${client.package.replace('/', '+')}@${client.version}`);
}

export function clientBin(name, env = process.env) {
  return path.join(clientDir(name, env), 'node_modules', '.bin', CLIENTS[name].bin);
}

/** Minutes: the three clients together are ~900 MB; a slow mirror still finishes well inside. */
const INSTALL_DEADLINE_MS = 20 * 60_000;

/**
 * Install one client when its binary is missing. npm installs into a scratch folder that is
 * renamed into place only on success, so an interrupted install never leaves a half folder
 * that a later run would take for a good one. Returns undefined, or why it could not.
 */
export function ensureClient(name, env = process.env) {
  const client = CLIENTS[name];
  if (existsSync(clientBin(name, env))) return undefined;
  const dir = clientDir(name, env);
  const scratch = `${dir}.partial-${process.pid}`;
  const spec = `${client.package}@${client.version}`;
  try {
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
  } catch (error) {
    return `${spec} could not be installed (cache folder ${cacheRoot(env)}: ${error.message})`;
  }
  process.stdout.write(`test:clients: installing ${spec} into ${dir} …\n`);
  const result = spawnSync('npm', ['install', '--prefix', scratch, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', spec], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: INSTALL_DEADLINE_MS,
    killSignal: 'SIGKILL',
  });
  if (result.status !== 0 || !existsSync(path.join(scratch, 'node_modules', '.bin', client.bin))) {
    rmSync(scratch, { recursive: true, force: true });
    const why = result.error ? result.error.message : result.signal ? `killed by ${result.signal}` : `npm install exited ${result.status}`;
    return `${spec} could not be installed (${why})`;
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  return undefined;
}

// `node scripts/clients-cache.mjs`: fill the cache and nothing else (e.g. ahead of a CI run).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const name of Object.keys(CLIENTS)) {
    const why = ensureClient(name);
    if (why) {
      failed = true;
      process.stderr.write(`test:clients: ${why}\n`);
    } else process.stdout.write(`test:clients: ${name} ready: ${clientBin(name)}\n`);
  }
  process.exit(failed ? 1 : 0);
}
