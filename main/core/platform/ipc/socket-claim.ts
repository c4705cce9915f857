import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type { Logger } from '../config/log.js';
import { tryAcquireLock } from '../fs/file-lock.js';
import { prepareSocketFolder } from './socket-folder.js';

/** sun_path holds 108 bytes on Linux and 104 on macOS, terminator included. */
const MAX_SOCKET_PATH_BYTES = process.platform === 'darwin' ? 103 : 107;

type Probe = 'alive' | 'refused' | 'missing' | 'timeout';

/** Is somebody serving this socket? A stopped (SIGSTOP) server accepts but never answers: 'timeout'. */
export function probeSocket(socketPath: string, timeoutMs = 500): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    const done = (result: Probe) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    socket.once('connect', () => done('alive'));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ENOENT' ? 'missing' : 'refused'));
  });
}

function listenOnce(server: net.Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(socketPath);
  });
}

function alreadyServing(socketPath: string, stateDir: string, how: Probe): KiokuError {
  const state = how === 'timeout' ? 'accepts connections but does not answer (stopped or hung?)' : 'is answering';
  return new KiokuError('LOCKED', `another Kioku already serves this memory home: socket ${socketPath} ${state}`, {
    path: socketPath,
    hint: `the hooks already reach that instance; to start another, stop it first (its pid is in ${path.join(stateDir, 'daemon.pid')})`,
  });
}

/** Make (or refuse) the socket's folder (socket-folder.ts); warn about a path too long to bind. */
function prepareFolder(socketPath: string, stateDir: string, logger: Logger): void {
  prepareSocketFolder(socketPath, stateDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    logger.warn(
      'ipc',
      `socket path ${socketPath} is ${Buffer.byteLength(socketPath)} bytes, over the ${MAX_SOCKET_PATH_BYTES} a Unix socket allows; set XDG_RUNTIME_DIR to a shorter folder`,
    );
  }
}

/**
 * Listen on the socket, recovering a stale one (STYLE.md §Socket handling, VS Code's
 * `claimInstance`): on EADDRINUSE try to connect; somebody answers → another instance owns this
 * memory home, refuse; ECONNREFUSED (a file left by a killed process) → unlink it and listen
 * again. The takeover runs under a lock file so that two daemons starting together cannot both
 * judge the file stale and the second unlink the first one's fresh socket.
 */
export async function listenExclusive(server: net.Server, socketPath: string, stateDir: string, logger: Logger): Promise<void> {
  const isPipe = process.platform === 'win32';
  if (!isPipe) prepareFolder(socketPath, stateDir, logger);
  try {
    await listenOnce(server, socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw socketError(socketPath, error);
    // A Windows pipe vanishes with its process, so "in use" always means a live owner.
    if (isPipe) throw alreadyServing(socketPath, stateDir, 'alive');
    await takeOverStale(server, socketPath, stateDir, logger);
  }
  if (!isPipe) fs.chmodSync(socketPath, 0o600);
}

async function takeOverStale(server: net.Server, socketPath: string, stateDir: string, logger: Logger): Promise<void> {
  const lockFile = path.join(stateDir, 'socket.lock');
  const lock = tryAcquireLock(lockFile, { purpose: 'claim the IPC socket', waitMs: 3_000, staleMs: 15_000 });
  if (!lock) {
    throw new KiokuError('LOCKED', `another Kioku is claiming socket ${socketPath} right now (lock ${lockFile})`, {
      path: lockFile,
      hint: 'wait a few seconds and try again',
    });
  }
  try {
    const probe = await probeSocket(socketPath);
    if (probe === 'alive' || probe === 'timeout') throw alreadyServing(socketPath, stateDir, probe);
    logger.info('ipc', `socket ${socketPath} is stale (${probe === 'missing' ? 'gone meanwhile' : 'connection refused'}); replacing it`);
    try {
      fs.unlinkSync(socketPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw socketError(socketPath, error);
    }
    try {
      await listenOnce(server, socketPath);
    } catch (error) {
      throw socketError(socketPath, error);
    }
  } finally {
    lock.release();
  }
}

function socketError(socketPath: string, error: unknown): KiokuError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  return new KiokuError('IO', `cannot listen on ${socketPath} (${code}: ${(error as Error).message})`, {
    path: socketPath,
    cause: error,
    hint:
      code === 'EACCES'
        ? `check that you own ${path.dirname(socketPath)}`
        : 'check the folder exists and is writable, or set XDG_RUNTIME_DIR',
  });
}

/** The inode of the socket we bound, so stop() removes our file and never a successor's. */
export function socketIdentity(socketPath: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const stat = fs.statSync(socketPath);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

export function removeSocketIfOurs(socketPath: string, identity: string | undefined): void {
  if (identity === undefined || socketIdentity(socketPath) !== identity) return;
  try {
    fs.unlinkSync(socketPath);
  } catch {
    /* removed by net.Server.close already */
  }
}
