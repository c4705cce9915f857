import fs from 'node:fs';
import type { HookEvent } from '../../../../common/hook-events.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { createFileExclusiveSync, writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { forgetSightings } from '../../platform/fs/clock-skew.js';
import {
  isOwnLock,
  listLockedRoleIds,
  liveHolderActivity,
  newLockRecord,
  readLockFile,
  roleLockPath,
  sameTranscript,
  withLockGuard,
  type RoleLock,
} from './role-lock-file.js';

/**
 * One live session per role (LOCK-1…5, seed 000 §--unlock). Design principle from the seed:
 * "寧可誤放行也不要誤鎖" — a false lock leaves the user unable to reach a role, which is far
 * worse than the odd double load, so every doubt resolves to "allow".
 */
type LockEvent = Pick<HookEvent, 'assistant' | 'sessionId' | 'transcriptPath'>;

export interface RoleLockHolder extends RoleLock {
  /** The holder's transcript mtime (ISO): when it last showed activity. */
  lastActive: string;
}

/** The three ways out that CALL-2 and LOCK-1 tell the user about. */
export interface LockRemedies {
  unlockCommand: string;
  idleMinutes: number;
  /** When the idle timeout frees the role if the holder stays quiet (ISO). */
  freeAfter: string;
  disableSetting: 'ROLE_SINGLE_INSTANCE=0';
}

export type ClaimResult =
  | { ok: true; how: 'skipped' | 'created' | 'refreshed' | 'taken-over'; previousHolder?: RoleLock }
  | { ok: false; holder: RoleLockHolder; remedies: LockRemedies };

/** LOCK-3: single-instance off, skipped (sub-agents), or no transcript to identify the session. */
export function locksApply(config: KiokuConfig, event: Pick<HookEvent, 'transcriptPath'>): boolean {
  return config.settings.ROLE_SINGLE_INSTANCE && !config.settings.ROLE_SKIP_INSTANCE_LOCK && Boolean(event.transcriptPath?.trim());
}

export function lockRemedies(config: KiokuConfig, holder: RoleLockHolder): LockRemedies {
  const idleMinutes = config.settings.ROLE_INSTANCE_IDLE_MINUTES;
  return {
    unlockCommand: `kioku role unlock ${holder.role}`,
    idleMinutes,
    freeAfter: formatLocalIso(new Date(new Date(holder.lastActive).getTime() + idleMinutes * 60_000)),
    disableSetting: 'ROLE_SINGLE_INSTANCE=0',
  };
}

const MAX_ATTEMPTS = 4;

/**
 * Take `roleId` for this session. The first claim is one O_EXCL create (temp file + link, so
 * a reader never sees half a lock). An existing lock is judged under a guard: own → refreshed
 * (resume; the transcript path may have changed), holder alive → refused, holder gone or idle
 * (LOCK-2) or the file unreadable → replaced. A lock that vanishes between the failed create
 * and the judgement (its holder's SessionEnd) sends us back to the create.
 */
/**
 * A role lock claims a live session: after a power cut no session is alive, so a lock the cut
 * loses loses nothing. Written atomically but without fsync, which would cost every SessionStart
 * and call by name several milliseconds of disk flush (X-PERF).
 */
const LOCK_WRITE = { durable: false } as const;

export function claimRole(config: KiokuConfig, roleId: string, event: LockEvent, now: Date = config.clock.now()): ClaimResult {
  const file = roleLockPath(config, roleId);
  const transcriptPath = event.transcriptPath?.trim();
  if (!transcriptPath || !locksApply(config, event)) return { ok: true, how: 'skipped' };
  const mine = newLockRecord(roleId, { ...event, transcriptPath }, now);
  const text = `${JSON.stringify(mine, null, 2)}\n`;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (createFileExclusiveSync(file, text, LOCK_WRITE)) return { ok: true, how: 'created' };
    const judged = withLockGuard(file, (): ClaimResult | 'retry' => {
      const state = readLockFile(file);
      if (state.kind === 'missing') return 'retry';
      if (state.kind === 'held' && isOwnLock(state.lock, event)) {
        writeFileAtomicSync(file, text, LOCK_WRITE);
        forgetSightings(file);
        return { ok: true, how: 'refreshed' };
      }
      if (state.kind === 'held') {
        const active = liveHolderActivity(config, state.lock, now, { lockFile: file, ownTranscript: transcriptPath });
        if (active) {
          const holder: RoleLockHolder = { ...state.lock, lastActive: formatLocalIso(active) };
          return { ok: false, holder, remedies: lockRemedies(config, holder) };
        }
      }
      // Replace by rename, never delete-then-create: the file is never missing, so a contender's
      // O_EXCL create cannot slip into a gap, and nobody but the guard holder replaces it.
      writeFileAtomicSync(file, text, LOCK_WRITE);
      forgetSightings(file);
      return state.kind === 'held' ? { ok: true, how: 'taken-over', previousHolder: state.lock } : { ok: true, how: 'taken-over' };
    });
    // Guard busy past its wait: someone is mid-handover right now. Allowing without a lock is
    // the seed's chosen failure mode; the next claim (or SessionStart) will sort it out.
    if (!judged) return { ok: true, how: 'skipped' };
    if (judged.value !== 'retry') return judged.value;
  }
  return { ok: true, how: 'skipped' };
}

/**
 * True when this session may count itself as holding `roleId`: locks do not apply to it, or the
 * lock file records it. Reads only; used to tell "already this role" from "was refused it".
 */
export function holdsRole(config: KiokuConfig, roleId: string, event: LockEvent): boolean {
  if (!locksApply(config, event)) return true;
  const state = readLockFile(roleLockPath(config, roleId));
  return state.kind === 'held' && isOwnLock(state.lock, event);
}

/**
 * Release `roleId`'s lock when its recorded transcript is this session's own; true when released.
 * Only the transcript decides: a second session refused by the lock also gets a SessionEnd, and
 * deleting unconditionally would free the first session's role under its feet (seed 000
 * §--unlock, "role_unload.sh 只在鎖檔登記的 transcript 等於自己時才釋放").
 */
export function releaseOwnLock(config: KiokuConfig, roleId: string, event: Pick<HookEvent, 'transcriptPath'>): boolean {
  const own = event.transcriptPath?.trim();
  const file = roleLockPath(config, roleId);
  if (!own) return false;
  const first = readLockFile(file);
  if (first.kind !== 'held' || !sameTranscript(first.lock.transcriptPath, own)) return false;
  // Judge again under the guard: between the read and the delete another session may have
  // taken the (idle) lock over, and its lock must survive.
  const done = withLockGuard(file, () => {
    const state = readLockFile(file);
    if (state.kind !== 'held' || !sameTranscript(state.lock.transcriptPath, own)) return false;
    fs.rmSync(file, { force: true });
    forgetSightings(file);
    return true;
  });
  return done?.value ?? false;
}

/**
 * Release every lock this session holds (LOCK-4: after calls there may be several), except
 * `keepId`. Returns the IDs released.
 */
export function releaseOwnLocks(config: KiokuConfig, event: Pick<HookEvent, 'transcriptPath'>, keepId?: string): string[] {
  if (!event.transcriptPath?.trim()) return [];
  return listLockedRoleIds(config).filter((id) => id !== keepId && releaseOwnLock(config, id, event));
}

export interface UnlockedRole {
  role: string;
  /** What the lock said, when it could be read. */
  holder?: RoleLock;
}

/** LOCK-5: clear one role's lock, or every lock, by hand. Returns what was removed. */
export function unlockRoles(config: KiokuConfig, roleId?: string): UnlockedRole[] {
  const ids = roleId === undefined ? listLockedRoleIds(config) : [roleId];
  const removed: UnlockedRole[] = [];
  for (const id of ids) {
    const file = roleLockPath(config, id);
    const state = readLockFile(file);
    if (state.kind === 'missing') continue;
    fs.rmSync(file, { force: true });
    forgetSightings(file);
    removed.push(state.kind === 'held' ? { role: id, holder: state.lock } : { role: id });
  }
  return removed;
}
