import os from 'node:os';
import path from 'node:path';
import type { Settings } from './settings-schema.js';
import { joinPlain } from '../fs/plain-join.js';

/** Where everything lives (ARCHITECTURE.md §Data on disk). */
export interface KiokuPaths {
  roleHome: string;
  memoryHome: string;
  /** `<memory home>/.kioku`: app state, never the truth; deleting it loses nothing. */
  stateDir: string;
  indexFile: string;
  spoolDir: string;
  snapshotsDir: string;
  logsDir: string;
  tokenFile: string;
  settingsFile: string;
  /** Unix socket path, or a Windows named pipe. */
  socketPath: string;
  sessionsDir: string;
  assetsDir: string;
  factsFile: string;
  journalFile: string;
}

export function expandHome(value: string, home = os.homedir()): string {
  if (value === '~') return home;
  if (value.startsWith('~/') || value.startsWith('~\\')) return path.join(home, value.slice(2));
  return value;
}

/**
 * The memory home as the environment names it (ROLE_MEMORY_HOME, else ~/.memory): where the
 * settings file is looked for, before there are settings, and the hook launcher's cache folder.
 */
export function memoryHomeFromEnv(env: NodeJS.ProcessEnv): string {
  return homeFromEnv(env.ROLE_MEMORY_HOME, '~/.memory', env);
}

/** A home folder setting as the environment gives it (blank is unset, as for every setting), resolved. */
function homeFromEnv(value: string | undefined, fallback: string, env: NodeJS.ProcessEnv): string {
  return path.resolve(expandHome(value?.trim() || fallback, env.HOME || os.homedir()));
}

/**
 * The role home as the environment names it (ROLE_HOME, else ~/.roles): what the settings resolve
 * it to unless the settings file sets it — the hook launcher's silent prompt, which reads no
 * settings schema, asks only then (hooks/launcher-silent-prompt.ts).
 */
export function roleHomeFromEnv(env: NodeJS.ProcessEnv): string {
  return homeFromEnv(env.ROLE_HOME, '~/.roles', env);
}

/**
 * Where the launchers keep V8's code caches (`<memory home>/.kioku/cache`, with the fallback's
 * and the direct recall's), found before there are settings, as the settings file is.
 */
export function codeCacheDirFromEnv(env: NodeJS.ProcessEnv): string {
  return path.join(memoryHomeFromEnv(env), '.kioku', 'cache');
}

/**
 * The daemon's socket as the environment names it, the settings file unread (the recall launcher
 * looks for it before loading anything, issue 17): the same path resolvePaths gives.
 */
export function socketPathFromEnv(env: NodeJS.ProcessEnv): string {
  const memoryHome = memoryHomeFromEnv(env);
  return socketPathFor(memoryHome, env, path.join(memoryHome, '.kioku'));
}

/** Longest socket path used: sun_path is 104 bytes on macOS and 108 on Linux, terminator included. */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * The socket for one memory home: `<hash>` comes from the memory home path so that tests with
 * temp homes never collide (VS Code's `ipc.net.ts` habit).
 *
 * Its folder must be one only the user can write (issue 14): whoever can create files there can
 * put a socket of their own in our socket's place and receive the token and every prompt. So the
 * folder is, in order, the first whose path fits a socket: `$XDG_RUNTIME_DIR` (the system's
 * per-user 0700 folder), the state dir (0700, ours), or `kioku-<uid>` in the temp folder — never
 * the shared temp folder itself. The daemon creates and checks that folder (socket-folder.ts),
 * and the client checks it again before sending anything (socket-trust.ts).
 *
 * The hash is FNV-1a, not sha256: the hook client resolves this path on every assistant event,
 * and node:crypto is the most expensive module it would otherwise load (X-PERF). The name only
 * has to differ between homes, not resist an attacker (the folder's owner and mode do that).
 */
export function socketPathFor(memoryHome: string, env: NodeJS.ProcessEnv, stateDir: string): string {
  const hash = fnv1a64Hex(path.resolve(memoryHome)).slice(0, 12);
  if (process.platform === 'win32') return `\\\\.\\pipe\\kioku-${hash}`;
  const name = `kioku-${hash}.sock`;
  const perUser = `kioku-${process.getuid?.() ?? 'user'}`;
  // TMPDIR from `env`, like every other path here (os.tmpdir() would read this process's own).
  const tempDir = (env.TMPDIR || '/tmp').replace(/(.)\/+$/, '$1');
  const candidates = [env.XDG_RUNTIME_DIR, stateDir, joinPlain(tempDir, perUser)].filter((d): d is string => Boolean(d));
  for (const dir of candidates) {
    const full = joinPlain(dir, name);
    if (Buffer.byteLength(full) <= MAX_SOCKET_PATH_BYTES) return full;
  }
  // A TMPDIR too long for a socket: the shortest per-user folder there is.
  return path.join('/tmp', perUser, name);
}

/**
 * A fixed name in a folder path.resolve gave: that path is already normal, so the join is the two
 * strings side by side (a root such as `/` or `C:\\` already ends with the separator). Neither
 * path.join's normalising loop nor joinPlain's checks (plain-join.ts), whose two regular
 * expressions every hook and command compiled here, for a dozen joins that cannot need them:
 * about 0.15 ms of every process's start (X-PERF, issue 17).
 */
function inFolder(resolvedDir: string, name: string): string {
  return resolvedDir.endsWith(path.sep) ? resolvedDir + name : resolvedDir + path.sep + name;
}

export function resolvePaths(settings: Pick<Settings, 'ROLE_HOME' | 'ROLE_MEMORY_HOME'>, env: NodeJS.ProcessEnv): KiokuPaths {
  const home = env.HOME || os.homedir();
  const roleHome = path.resolve(expandHome(settings.ROLE_HOME, home));
  const memoryHome = path.resolve(expandHome(settings.ROLE_MEMORY_HOME, home));
  const stateDir = inFolder(memoryHome, '.kioku');
  // The socket's path is worked out when first asked for (then kept), from the two variables it
  // reads as they are now: its hash and the checks of its folder were a quarter of a millisecond
  // of every prompt that calls nobody, which never talks to the daemon (trace marks, issue 17).
  const socketEnv = { XDG_RUNTIME_DIR: env.XDG_RUNTIME_DIR, TMPDIR: env.TMPDIR };
  let socketPath: string | undefined;
  return {
    roleHome,
    memoryHome,
    stateDir,
    indexFile: inFolder(stateDir, 'index.sqlite'),
    spoolDir: inFolder(stateDir, 'spool'),
    snapshotsDir: inFolder(stateDir, 'snapshots'),
    logsDir: inFolder(stateDir, 'logs'),
    tokenFile: inFolder(stateDir, 'token'),
    settingsFile: inFolder(stateDir, 'settings.json'),
    get socketPath() {
      return (socketPath ??= socketPathFor(memoryHome, socketEnv, stateDir));
    },
    sessionsDir: inFolder(roleHome, '.sessions'),
    assetsDir: inFolder(roleHome, '.assets'),
    factsFile: inFolder(memoryHome, 'FACT.md'),
    journalFile: inFolder(memoryHome, 'JOURNAL.jsonl'),
  };
}

/**
 * 64-bit FNV-1a of the UTF-8 bytes, as 16 hex digits. In two 32-bit halves, not BigInt: BigInt
 * arithmetic was 0.2 ms of every hook's start for a 40-byte path (trace marks, session 20). The
 * prime is 2^40 + 0x1b3, so the product's high half is hi·0x1b3 + lo·2^8 plus the low half's carry.
 */
export function fnv1a64Hex(text: string): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  // Indexed, not iterated: a Buffer's iterator is compiled on its first use, in every process.
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]!) >>> 0;
    const low = lo * 0x1b3; // < 2^41: exact in a double
    hi = (Math.imul(hi, 0x1b3) + (lo << 8) + Math.floor(low / 0x100000000)) >>> 0;
    lo = low >>> 0;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}
