import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../common/errors.js';
import type { HookEvent } from '../../../common/hook-events.js';
import { isValidRoleId } from '../../../common/role-id.js';
import { formatLocalIso } from '../config/clock.js';
import type { KiokuConfig } from '../config/config.js';
import { tryAcquireLock } from '../fs/file-lock.js';
import { sessionKeyOf } from './session-key.js';

/**
 * One role lock (LOCK-1, seed 000 §--unlock): `<role home>/.locks/<ID>.lock`, JSON. Who holds it
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
  if (!isValidRoleId(roleId)) throw new KiokuError('INVALID_ID', `"${roleId}" is not a role ID`, { hint: 'list the roles and their IDs with `kioku role list`' });
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

export function newLockRecord(roleId: string, event: Pick<HookEvent, 'assistant' | 'sessionId'> & { transcriptPath: string }, now: Date): RoleLock {
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

/**
 * The holder's transcript mtime when it is still being written to (LOCK-2), else undefined:
 * deleted, unreadable or idle longer than ROLE_INSTANCE_IDLE_MINUTES. Any doubt counts as not
 * alive — seed 000 §--unlock: "寧可誤放行也不要誤鎖".
 */
export function liveHolderActivity(config: KiokuConfig, lock: RoleLock, now: Date): Date | undefined {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(lock.transcriptPath).mtimeMs;
  } catch {
    return undefined;
  }
  const idleMs = config.settings.ROLE_INSTANCE_IDLE_MINUTES * 60_000;
  return now.getTime() - mtimeMs > idleMs ? undefined : new Date(mtimeMs);
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
