import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { fingerprint, forgetSightings, notAfter, unchangedFor } from './clock-skew.js';
import { uniqueHex } from './unique-hex.js';

/**
 * A cross-process lock held as a file that appears whole and only once (temp file + link, the
 * O_EXCL way): `{pid, host, since, purpose}`, written by the holder with its own clock.
 * Design notes: docs/design-notes.md, "main/core/platform/fs/file-lock.ts".
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

function parseLockInfo(text: string): LockInfo | undefined {
  try {
    const info = JSON.parse(text) as LockInfo;
    if (info && typeof info.pid === 'number' && typeof info.since === 'number') return info;
  } catch {
    /* half-written by an old version, or not ours */
  }
  return undefined;
}

export function readLockInfo(file: string): LockInfo | undefined {
  try {
    return parseLockInfo(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined; /* missing */
  }
}

interface LockSnapshot {
  text: string;
  stat: fs.Stats;
  info: LockInfo | undefined;
}

function snapshot(file: string): LockSnapshot | undefined {
  let stat: fs.Stats;
  let text = '';
  try {
    stat = fs.statSync(file);
  } catch {
    return undefined;
  }
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    /* gone since the stat, or unreadable: judged as unreadable (a missing file is not removed) */
  }
  return { text, stat, info: parseLockInfo(text) };
}

/** An unreadable lock older than this is a leftover: a lock file is written whole, in microseconds. */
const UNREADABLE_STALE_MS = 5_000;

/** `ifMissing`: the answer when there is no lock file at all (worth a retry, nothing to remove). */
function isStale(file: string, staleMs: number, now: number, ifMissing = true): boolean {
  const lock = snapshot(file);
  if (!lock) return ifMissing;
  const { info, stat } = lock;
  const seen = () => unchangedFor(file, fingerprint(stat.ino, stat.size, stat.mtimeMs, lock.text), now);
  if (info && info.host === os.hostname()) {
    if (!processAlive(info.pid)) return true;
    const since = notAfter(info.since, now);
    // A young lock needs no sighting (the common case: a holder that releases in milliseconds).
    if (since !== undefined && now - since <= staleMs) return false;
    return seen() >= staleMs;
  }
  const limit = info ? staleMs : UNREADABLE_STALE_MS;
  const claimed = notAfter(info ? info.since : stat.mtimeMs, now);
  const written = notAfter(stat.mtimeMs, now);
  if (claimed !== undefined && written !== undefined) return now - claimed > limit && now - written > limit;
  return seen() >= limit;
}

/** A takeover guard lasts microseconds; its holder is judged like any lock, with this limit. */
const GUARD_STALE_MS = 10_000;

const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Create `file` holding `text` only if it does not exist, never visible half-written: the text is
 * written to a temp file that is then hard-linked into place. Where the file system has no hard
 * links, an O_EXCL create and write (a reader may then see it empty for a moment).
 */
function createExclusive(file: string, text: string): boolean {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${uniqueHex()}.tmp`);
  fs.writeFileSync(temp, text, { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!LINK_UNSUPPORTED.has(code)) throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  try {
    fs.writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function removeLockFile(file: string): void {
  fs.rmSync(file, { force: true });
  forgetSightings(file);
}

/**
 * Remove a stale lock so the caller can try to create its own. Two processes that both judged
 * the same lock stale must not both remove it: the second would delete the first one's fresh
 * lock and both would go on holding "the" lock. So a takeover happens only while holding an
 * exclusive guard file (itself a small lock: pid, host, since), and staleness is judged again
 * inside it. Returns false when another process is taking over right now (the caller waits and
 * retries).
 */
function takeOverStale(file: string, staleMs: number): boolean {
  const guard = `${file}.takeover`;
  const mine: LockInfo = { pid: process.pid, host: os.hostname(), since: Date.now(), purpose: 'takeover' };
  if (!createExclusive(guard, JSON.stringify(mine))) {
    // A guard whose holder died mid-takeover is removed; the next round creates ours.
    if (isStale(guard, GUARD_STALE_MS, Date.now(), false)) removeLockFile(guard);
    return false;
  }
  try {
    // Only a lock file that is there and stale. A missing one is the caller's cue to retry, but
    // removing whatever name is in its place by now would delete a lock another process has
    // just created (creators do not take the guard), and two processes would hold the lock.
    if (isStale(file, staleMs, Date.now(), false)) removeLockFile(file);
    return true;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

export interface AcquireOptions {
  purpose: string;
  /** How long to keep trying (ms); 0 = one attempt. */
  waitMs?: number;
  /**
   * A lock held longer than this is taken over even if its process seems alive (a reused pid),
   * once the judge has also seen it unchanged for this long (see the staleness rules above).
   */
  staleMs?: number;
}

export function tryAcquireLock(file: string, options: AcquireOptions): FileLock | undefined {
  const staleMs = options.staleMs ?? 30 * 60_000;
  const deadline = Date.now() + (options.waitMs ?? 0);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (;;) {
    const info: LockInfo = { pid: process.pid, host: os.hostname(), since: Date.now(), purpose: options.purpose };
    if (createExclusive(file, JSON.stringify(info))) {
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
            forgetSightings(file);
          }
        },
      };
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
