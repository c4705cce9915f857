import fs from 'node:fs';
import path from 'node:path';
import { isValidRoleId } from '../../../../common/role-id.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { parseLooseDate } from '../../platform/config/clock.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { readTextIfExists } from '../../platform/fs/read-if-exists.js';
import { sessionRoleFilePath } from './session-role-file.js';

/**
 * `<role home>/.sessions/<key>.roles`: who the session was, and from where in its transcript
 * (issue 19, CALL-3: what came before the call belongs to the earlier identity and is not rewritten). The `.role` file
 * says who the session is now; this says who it was at each point, so an assistant turn is
 * labelled with the role that said it in a handoff, and a turn captured late (from the spool,
 * after further calls) is filed under the role that answered it.
 *
 * One JSON object per line: `{"role":"YUI01","how":"call","pos":12345,"at":"…"}`. `pos` is the
 * transcript's size in bytes when the role took over: every turn starting at or after it is that
 * role's (a call's own reply is written after UserPromptSubmit, so it falls after). `at` is the
 * instant of the change (UTC, to the millisecond), for an event whose place in the transcript
 * cannot be found.
 *
 * Small (a change is written only when the role differs from the last one, and only the last
 * MAX_ENTRIES are kept), written atomically but not fsynced (a lost file costs only attribution:
 * readers fall back to the `.role` file and `ROLE_NAME`/`.active`, the behaviour before it
 * existed), read leniently (a garbled line is skipped, a garbled file is an empty history), and
 * swept with the other session files after 7 idle days (cleanupIdleSessionFiles).
 */
const HISTORY_SUFFIX = '.roles';
const MAX_ENTRIES = 64;

export type RoleChangeHow = 'start' | 'resume' | 'call' | 'handback';

export interface RoleHistoryEntry {
  roleId: string;
  how: RoleChangeHow;
  /** Transcript bytes before the change; undefined when the session had no readable transcript. */
  pos?: number;
  /** When the change happened (ISO instant). */
  at: string;
  /**
   * The transcript `pos` counts in. A client that resumes a session into a new file (same
   * session id) starts positions over: only the changes recorded with a file speak for it.
   */
  transcript?: string;
}

const HOWS: ReadonlySet<string> = new Set<RoleChangeHow>(['start', 'resume', 'call', 'handback']);

export function roleHistoryFilePath(config: KiokuConfig, sessionKey: string): string {
  // Same folder and the same key check as the `.role` file.
  return sessionRoleFilePath(config, sessionKey).replace(/\.role$/, HISTORY_SUFFIX);
}

function parseEntry(line: string): RoleHistoryEntry | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const { role, how, pos, at, transcript } = raw as Record<string, unknown>;
  // A hand-edited or foreign value must never become a path segment (ROLE-3).
  if (typeof role !== 'string' || !isValidRoleId(role) || typeof at !== 'string' || !parseLooseDate(at)) return undefined;
  const entry: RoleHistoryEntry = { roleId: role, how: typeof how === 'string' && HOWS.has(how) ? (how as RoleChangeHow) : 'call', at };
  if (typeof pos === 'number' && Number.isSafeInteger(pos) && pos >= 0) entry.pos = pos;
  if (typeof transcript === 'string' && transcript) entry.transcript = transcript;
  return entry;
}

/** The session's role changes, oldest first; [] when there is no file or nothing in it reads. */
export function readRoleHistory(config: KiokuConfig, sessionKey: string): RoleHistoryEntry[] {
  let text: string | undefined;
  try {
    // A new session has none: asked first rather than caught (read-if-exists.ts).
    text = readTextIfExists(roleHistoryFilePath(config, sessionKey));
  } catch {
    return [];
  }
  if (text === undefined) return [];
  return text.split(/\r?\n/).flatMap((line) => {
    const entry = line.trim() ? parseEntry(line.trim()) : undefined;
    return entry ? [entry] : [];
  });
}

/** The transcript's size now, the position a change takes effect from; undefined when unreadable. */
export function transcriptSize(transcriptPath: string | undefined): number | undefined {
  if (!transcriptPath) return undefined;
  try {
    return fs.statSync(transcriptPath).size;
  } catch {
    return undefined;
  }
}

export interface RoleChange {
  roleId: string;
  how: RoleChangeHow;
  pos?: number;
  /** The session's transcript, which `pos` counts in. */
  transcript?: string;
  now: Date;
}

const sameFile = (a: string | undefined, b: string | undefined) =>
  a === undefined || b === undefined || path.resolve(a) === path.resolve(b);

function lineOf(e: RoleHistoryEntry): string {
  return JSON.stringify({
    role: e.roleId,
    how: e.how,
    ...(e.pos !== undefined ? { pos: e.pos } : {}),
    at: e.at,
    ...(e.transcript ? { transcript: e.transcript } : {}),
  });
}

/**
 * Record that the session is `roleId` from `pos` on. Nothing is written when the history already
 * ends with that role (a resume of the same role, the second part of a split SessionStart): the
 * file is only touched, so a session that is still used is not swept as idle. A call back to the
 * role that was there before the last change is recorded as a handback. Returns whether a line was
 * added. Throws on I/O errors; callers treat the history as best effort.
 */
export function recordRoleChange(config: KiokuConfig, sessionKey: string, change: RoleChange): boolean {
  const file = roleHistoryFilePath(config, sessionKey);
  let history = readRoleHistory(config, sessionKey);
  const last = history[history.length - 1];
  const sameTranscript = sameFile(last?.transcript, change.transcript);
  // A position before the last change's in the same file: the transcript began anew under the
  // same key (a cleared session), so the old positions mean nothing for it.
  if (sameTranscript && change.pos !== undefined && last?.pos !== undefined && change.pos < last.pos) history = [];
  if (sameTranscript && history[history.length - 1]?.roleId === change.roleId) {
    touch(file, change.now);
    return false;
  }
  const how =
    change.how === 'call' && history.length >= 2 && history[history.length - 2]!.roleId === change.roleId ? 'handback' : change.how;
  const entry: RoleHistoryEntry = { roleId: change.roleId, how, at: change.now.toISOString() };
  if (change.pos !== undefined) entry.pos = change.pos;
  if (change.transcript) entry.transcript = change.transcript;
  const kept = [...history.slice(-(MAX_ENTRIES - 1)), entry];
  writeFileAtomicSync(file, `${kept.map(lineOf).join('\n')}\n`, { durable: false });
  return true;
}

/** Keep a session file from the 7-day sweep while the session is in use; missing files stay missing. */
export function touch(file: string, now: Date): void {
  try {
    fs.utimesSync(file, now, now);
  } catch {
    /* not there, or not ours: nothing to keep alive */
  }
}

/**
 * How far before a change's position a turn may start and still be the new role's. JSONL
 * transcripts (Claude Code, Codex) only grow, but Gemini CLI rewrites one pretty-printed document
 * whose closing `  ]\n}` (and the comma it adds to the message before) is overwritten by the next
 * message: a reply written right after a switch starts a few bytes before the size recorded at the
 * switch. No line of an earlier turn is this short (a transcript line carries ids and times), so
 * the slack never hands an earlier turn to the new role.
 */
const REWRITE_SLACK = 64;

/**
 * The role that was the session's at byte `offset` of its transcript: the last change at or
 * before it. Undefined when the history does not reach back that far (the turn is older than the
 * first recorded change, or the changes carry no positions). With `transcript`, only the changes
 * recorded for that file count.
 */
export function roleAtOffset(history: readonly RoleHistoryEntry[], offset: number, transcript?: string): string | undefined {
  let found: string | undefined;
  for (const entry of history) {
    if (!sameFile(entry.transcript, transcript)) continue;
    if (entry.pos === undefined) return undefined;
    if (entry.pos > offset + REWRITE_SLACK) break;
    found = entry.roleId;
  }
  return found;
}

/** The role that was the session's at `when`: the last change at or before it; undefined before the first. */
export function roleAtTime(history: readonly RoleHistoryEntry[], when: Date): string | undefined {
  let found: string | undefined;
  for (const entry of history) {
    const at = parseLooseDate(entry.at);
    if (!at || at.getTime() > when.getTime()) break;
    found = entry.roleId;
  }
  return found;
}
