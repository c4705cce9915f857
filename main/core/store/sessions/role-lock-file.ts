import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type { HookEvent } from '../../../../common/hook-events.js';
import { isValidRoleId } from '../../../../common/role-id.js';
import { formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { fingerprint, notAfter, unchangedFor, writtenAt } from '../../platform/fs/clock-skew.js';
import { tryAcquireLock } from '../../platform/fs/file-lock.js';
import { sessionKeyOf } from './session-key.js';

/**
 * One role lock (LOCK-1): `<role home>/.locks/<ID>.lock`, JSON. Who holds it
 * is identified by the transcript path, because that is what SessionEnd can compare (LOCK-4) and
 * what says whether the holder is still alive (its mtime, LOCK-2).
 */
export interface RoleLock {
  role: string;
  /** The holder's session key (sessionKeyOf), or null when the event had none. */
  sessionKey: string | null;
  transcriptPath: string;
  /** An AssistantName when Kioku wrote it; kept as plain text when read back (never trusted). */
  assistant: string;
  /** When the lock was taken or last refreshed (ISO with offset, from the clock). */
  since: string;
}

export type LockFileState = { kind: 'missing' } | { kind: 'unreadable' } | { kind: 'held'; lock: RoleLock };

const LOCK_SUFFIX = '.lock';

export function locksDir(config: KiokuConfig): string {
  return path.join(config.paths.roleHome, '.locks');
}

export function roleLockPath(config: KiokuConfig, roleId: string): string {
  // The ID becomes a file name: refuse anything that is not one before touching a path (ROLE-3).
  if (!isValidRoleId(roleId))
    throw new KiokuError('INVALID_ID', `"${roleId}" is not a role ID`, { hint: 'list the roles and their IDs with `kioku role list`' });
  return path.join(locksDir(config), `${roleId}${LOCK_SUFFIX}`);
}

/** Role IDs that have a lock file, sorted. */
export function listLockedRoleIds(config: KiokuConfig): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(locksDir(config));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(LOCK_SUFFIX))
    .map((name) => name.slice(0, -LOCK_SUFFIX.length))
    .filter(isValidRoleId)
    .sort();
}

function isRoleLock(value: unknown): value is RoleLock {
  if (!value || typeof value !== 'object') return false;
  const lock = value as Record<string, unknown>;
  return typeof lock.role === 'string' && typeof lock.transcriptPath === 'string' && lock.transcriptPath !== '';
}

export function readLockFile(file: string): LockFileState {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable' };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isRoleLock(parsed) ? { kind: 'held', lock: parsed } : { kind: 'unreadable' };
  } catch {
    return { kind: 'unreadable' };
  }
}

export function newLockRecord(
  roleId: string,
  event: Pick<HookEvent, 'assistant' | 'sessionId'> & { transcriptPath: string },
  now: Date,
): RoleLock {
  return {
    role: roleId,
    sessionKey: sessionKeyOf(event) ?? null,
    transcriptPath: path.resolve(event.transcriptPath),
    assistant: event.assistant,
    since: formatLocalIso(now),
  };
}

const caseInsensitivePaths = process.platform === 'win32';

/** Two transcript paths name the same file: resolved text first, then real paths (symlinks). */
export function sameTranscript(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const norm = (p: string) => (caseInsensitivePaths ? path.resolve(p).toLowerCase() : path.resolve(p));
  if (norm(a) === norm(b)) return true;
  try {
    return norm(fs.realpathSync.native(a)) === norm(fs.realpathSync.native(b));
  } catch {
    return false;
  }
}

/** This event's session is the one that wrote `lock` (same session key, or same transcript). */
export function isOwnLock(lock: RoleLock, event: Pick<HookEvent, 'sessionId' | 'transcriptPath'>): boolean {
  const key = sessionKeyOf(event);
  return (key !== undefined && lock.sessionKey === key) || sameTranscript(lock.transcriptPath, event.transcriptPath);
}

function statOf(file: string | undefined): fs.Stats | undefined {
  if (!file) return undefined;
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

export interface HolderJudgement {
  /** The lock file (its sightings sit beside it); default: the role's lock path. */
  lockFile?: string;
  /** The transcript of the session asking (the claimant), the reference for "now" on file times. */
  ownTranscript?: string;
}

/**
 * When the holder last showed life, if that was within ROLE_INSTANCE_IDLE_MINUTES, else undefined
 * (take over). LOCK-2: its transcript deleted → gone; its transcript idle longer than that by
 * mtime → gone. Any doubt counts as not alive — LOCK-3: rather a false allow than a false lock.
 *
 * Made robust to clock skew (issue 11: with the clock a day ahead of the transcripts every lock
 * looked idle, and six contenders one after another all took one role):
 * - an mtime ahead of the clock (another machine's, a clock set back) is no activity "now" for
 *   ever: the ctime this machine stamped at the last write stands in, and when that is ahead too,
 *   the transcript counts as active until it has been seen unchanged for the idle limit on the
 *   judge's own clock (clock-skew.ts sightings);
 * - a transcript idle by mtime is taken over only if the file times agree with the clock. They do
 *   not when the holder claimed the lock within the idle limit (its `since`, written with the
 *   clock Kioku runs on, the one the judge reads) and the claimant's own transcript — being
 *   written by the very session that is claiming — looks idle too: then the clock is ahead of the
 *   transcripts, and the holder's claim is its sign of life. A `since` ahead of the clock is no
 *   sign of anything.
 */
export function liveHolderActivity(config: KiokuConfig, lock: RoleLock, now: Date, judgement: HolderJudgement = {}): Date | undefined {
  const stat = statOf(lock.transcriptPath);
  if (!stat) return undefined;
  const nowMs = now.getTime();
  const idleMs = config.settings.ROLE_INSTANCE_IDLE_MINUTES * 60_000;
  let written = writtenAt(stat, nowMs);
  if (written === undefined) {
    const lockFile = judgement.lockFile ?? path.join(locksDir(config), `${lock.role}${LOCK_SUFFIX}`);
    written = nowMs - unchangedFor(lockFile, fingerprint(path.resolve(lock.transcriptPath), stat.ino, stat.size, stat.mtimeMs), nowMs);
  }
  if (nowMs - written <= idleMs) return new Date(written);
  const claimed = notAfter(parseLooseDate(lock.since)?.getTime() ?? Number.NaN, nowMs);
  const own = statOf(judgement.ownTranscript);
  const ownWritten = own && writtenAt(own, nowMs);
  const clockAhead = claimed !== undefined && nowMs - claimed <= idleMs && ownWritten !== undefined && nowMs - ownWritten > idleMs;
  return clockAhead ? new Date(claimed) : undefined;
}

/**
 * Run `fn` while holding `<ID>.lock.guard`. Only the steps that judge and then replace or delete
 * an existing lock need it: two sessions that both judged the same lock stale must not both
 * replace it (the second would delete the first one's fresh lock). The guard lasts
 * microseconds; a crashed guard holder is detected by file-lock.ts (dead pid, or 10 s).
 * Undefined when the guard could not be had in time.
 */
export function withLockGuard<T>(lockFile: string, fn: () => T): { value: T } | undefined {
  const guard = tryAcquireLock(`${lockFile}.guard`, { purpose: 'role-lock', waitMs: 500, staleMs: 10_000 });
  if (!guard) return undefined;
  try {
    return { value: fn() };
  } finally {
    guard.release();
  }
}
