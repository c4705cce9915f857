import fs from 'node:fs';
import path from 'node:path';
import { isValidRoleId } from '../../../../common/role-id.js';
import { KiokuError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';

/**
 * `<role home>/.sessions/<key>.role`: one line, the role this session actually is after a call
 * by name (CALL-3). Stop writes memories for this role, so what A was told
 * never lands in B's memory. Keys come from sessionKeyOf (already file-name safe).
 */
const ROLE_FILE_SUFFIX = '.role';

/** Session state older than this is removed (LOCK-4: removed after 7 days without an update). */
export const SESSION_STATE_MAX_IDLE_DAYS = 7;

function assertSafeKey(key: string): void {
  // Keys are made by sessionKeyOf; this guards a caller that passes raw text by mistake.
  if (!key || key.startsWith('.') || /[/\\]/.test(key) || key.includes('\0')) {
    throw new KiokuError('INVALID_ID', `session key "${key}" is not a safe file name`, { hint: 'derive the key with sessionKeyOf(event)' });
  }
}

export function sessionRoleFilePath(config: KiokuConfig, key: string): string {
  assertSafeKey(key);
  return path.join(config.paths.sessionsDir, `${key}${ROLE_FILE_SUFFIX}`);
}

/** The role recorded for the session, or undefined when there is none or it is not a valid ID. */
export function readSessionRole(config: KiokuConfig, key: string): string | undefined {
  const file = sessionRoleFilePath(config, key);
  let text: string;
  try {
    // Most sessions never called a role: asked first, so that no error is built for them.
    if (!fs.existsSync(file)) return undefined;
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const id = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/, 1)[0]
    ?.trim();
  // A hand-edited or foreign value must never become a path segment (ROLE-3).
  return id && isValidRoleId(id) ? id : undefined;
}

/**
 * Record the session's role. `switchedBy` is the id of the hook event that made the switch (a
 * second line, `switched-by: <id>`; readers of older files only take the first line): when the
 * daemon switches but answers later than the hook waits, the hook's fallback recomputes the same
 * event and must recognise the switch as its own instead of finding "already this role" and
 * saying nothing (the call would be lost).
 */
export function writeSessionRole(config: KiokuConfig, key: string, roleId: string, switchedBy?: string): string {
  if (!isValidRoleId(roleId)) throw new KiokuError('INVALID_ID', `"${roleId}" is not a role ID`);
  const file = sessionRoleFilePath(config, key);
  const by = switchedBy && /^[\w.:-]{1,128}$/.test(switchedBy) ? `switched-by: ${switchedBy}\n` : '';
  // Not fsynced, like the lock and the role history written in the same switch: after a power cut
  // the three come back together as they were before the call, where a durable `.role` could name
  // a role whose lock and history were lost. On a laptop's disk the two fsyncs were milliseconds of
  // every call by name (issue 17).
  writeFileAtomicSync(file, `${roleId}\n${by}`, { durable: false });
  return file;
}

/** The id of the event that last switched the session's role, when the file records one. */
export function readSessionSwitchEvent(config: KiokuConfig, key: string): string | undefined {
  try {
    const text = fs.readFileSync(sessionRoleFilePath(config, key), 'utf8');
    return /^switched-by: (\S+)$/m.exec(text)?.[1];
  } catch {
    return undefined;
  }
}

/** True when a file was removed. */
export function removeSessionRole(config: KiokuConfig, key: string): boolean {
  try {
    fs.unlinkSync(sessionRoleFilePath(config, key));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Remove session state files not updated for `maxIdleDays` (LOCK-4). Covers every file in
 * `.sessions/`, not only `.role`: a session killed with `kill -9` never reaches SessionEnd, and
 * its leftovers (including a crashed writer's temp file) would otherwise pile up forever.
 * Returns the names removed.
 */
export function cleanupIdleSessionFiles(
  config: KiokuConfig,
  now: Date = config.clock.now(),
  maxIdleDays = SESSION_STATE_MAX_IDLE_DAYS,
): string[] {
  const dir = config.paths.sessionsDir;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const cutoff = now.getTime() - maxIdleDays * 24 * 60 * 60_000;
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(dir, entry.name);
    try {
      if (fs.statSync(file).mtimeMs >= cutoff) continue;
      fs.unlinkSync(file);
      removed.push(entry.name);
    } catch {
      /* removed by another session's cleanup meanwhile */
    }
  }
  return removed;
}
