import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KiokuError } from '../../../common/errors.js';

/**
 * A cross-process lock held as a file created with O_EXCL: `{pid, host, since, purpose}`.
 * A lock whose process is gone (same host) or that is older than `staleMs` is taken over, so a
 * `kill -9` never leaves a role locked forever. Used for the per-role memory lock
 * (consolidation vs. writes that rewrite files).
 */
export interface LockInfo {
  pid: number;
  host: string;
  since: number;
  purpose: string;
}

export interface FileLock {
  readonly file: string;
  release(): void;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLockInfo(file: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
    if (typeof info.pid === 'number' && typeof info.since === 'number') return info;
  } catch {
    /* missing or half-written */
  }
  return undefined;
}

/** `ifMissing`: the answer when there is no lock file at all (worth a retry, nothing to remove). */
function isStale(file: string, staleMs: number, now: number, ifMissing = true): boolean {
  const info = readLockInfo(file);
  if (!info) {
    // Unreadable lock: judge by age so a half-written file does not lock forever.
    try {
      return now - fs.statSync(file).mtimeMs > 5_000;
    } catch {
      return ifMissing;
    }
  }
  if (info.host === os.hostname() && !processAlive(info.pid)) return true;
  return now - info.since > staleMs;
}

/** A takeover guard older than this belongs to a process that died mid-takeover (it lasts µs). */
const GUARD_STALE_MS = 10_000;

/**
 * Remove a stale lock so the caller can try to create its own. Two processes that both judged
 * the same lock stale must not both remove it: the second would delete the first one's fresh
 * lock and both would go on holding "the" lock. So a takeover happens only while holding an
 * O_EXCL guard file, and staleness is judged again inside it. Returns false when another
 * process is taking over right now (the caller waits and retries).
 */
function takeOverStale(file: string, staleMs: number): boolean {
  const guard = `${file}.takeover`;
  try {
    fs.writeFileSync(guard, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - fs.statSync(guard).mtimeMs > GUARD_STALE_MS) fs.unlinkSync(guard);
    } catch {
      /* gone already */
    }
    return false;
  }
  try {
    // Only a lock file that is there and stale. A missing one is the caller's cue to retry, but
    // removing whatever name is in its place by now would delete a lock another process has
    // just created (creators do not take the guard), and two processes would hold the lock.
    if (isStale(file, staleMs, Date.now(), false)) fs.rmSync(file, { force: true });
    return true;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

export interface AcquireOptions {
  purpose: string;
  /** How long to keep trying (ms); 0 = one attempt. */
  waitMs?: number;
  /** A lock older than this is taken over even if its process seems alive. */
  staleMs?: number;
}

export function tryAcquireLock(file: string, options: AcquireOptions): FileLock | undefined {
  const staleMs = options.staleMs ?? 30 * 60_000;
  const deadline = Date.now() + (options.waitMs ?? 0);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (;;) {
    const info: LockInfo = { pid: process.pid, host: os.hostname(), since: Date.now(), purpose: options.purpose };
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: 'wx' });
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          const current = readLockInfo(file);
          if (current && current.pid === info.pid && current.since === info.since) {
            try {
              fs.unlinkSync(file);
            } catch {
              /* already gone */
            }
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isStale(file, staleMs, Date.now()) && takeOverStale(file, staleMs)) continue;
    if (Date.now() >= deadline) return undefined;
    const until = Date.now() + 25;
    // Synchronous short wait: callers are CLI commands and the hook path, both synchronous.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(1, until - Date.now()));
  }
}

export function acquireLock(file: string, options: AcquireOptions): FileLock {
  const lock = tryAcquireLock(file, options);
  if (!lock) {
    const holder = readLockInfo(file);
    throw new KiokuError('LOCKED', `${file} is held by process ${holder?.pid ?? '?'} (${holder?.purpose ?? 'unknown'})`, {
      path: file,
      hint: 'wait for it to finish (a consolidation takes up to a few minutes), or run `kioku role unlock` if that process is gone',
    });
  }
  return lock;
}

export function withLock<T>(file: string, options: AcquireOptions, fn: () => T): T {
  const lock = acquireLock(file, options);
  try {
    return fn();
  } finally {
    lock.release();
  }
}
