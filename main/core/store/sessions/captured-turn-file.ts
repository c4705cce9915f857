import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { KiokuConfig } from '../../platform/config/config.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { sessionRoleFilePath } from './session-role-file.js';

/**
 * `<role home>/.sessions/<key>.captured`: which user turn of the session a Stop has already
 * judged — kept in the inbox, or let go by the CAP-1 filter. A PreCompact that comes right after
 * a Stop looks at the turn that Stop just judged; CAP-5 has it record
 * "尚未寫入的內容", and a turn its Stop already wrote is not that — without this file the same
 * words landed in the inbox twice — nor is one it let go (issue 13: no new dialogue since the
 * last capture writes nothing). Only the last turn is kept: a PreCompact only ever
 * looks at the newest one. Removed with the other session files after 7 idle days
 * (cleanupIdleSessionFiles); SessionEnd leaves it, because with the app down the hook releases
 * the session at once while its Stops wait in the spool.
 */
const CAPTURED_SUFFIX = '.captured';

/**
 * A user turn's identity within its session: its words (whitespace-normalized) and, when the
 * transcript has one, the time the user line was written — so "繼續" said twice is two turns.
 * The Stop and the PreCompact of one turn read the same transcript line and agree on it.
 */
export function turnKeyOf(userText: string, userAt?: string): string | undefined {
  const words = userText.replace(/\s+/g, ' ').trim();
  if (!words) return undefined;
  return createHash('sha256')
    .update(`${userAt ?? ''}\n${words}`)
    .digest('hex')
    .slice(0, 32);
}

export function capturedTurnFilePath(config: KiokuConfig, sessionKey: string): string {
  // Same folder and the same key check as the `.role` file.
  return sessionRoleFilePath(config, sessionKey).replace(/\.role$/, CAPTURED_SUFFIX);
}

/**
 * Which event captured the turn: a Stop (the turn ended), or a PreCompact in the middle of it —
 * then the turn's own Stop comes later and must not write it a second time.
 */
export type CapturedBy = 'stop' | 'pre-compact';

export interface CapturedTurn {
  key: string;
  by: CapturedBy;
}

/**
 * The session's last captured turn; undefined when none is recorded or the file is unreadable.
 * The file is `<key>\n` after a Stop (the only form older versions wrote) or `<key> pre-compact\n`.
 */
export function readCapturedTurnEntry(config: KiokuConfig, sessionKey: string): CapturedTurn | undefined {
  try {
    const match = /^([0-9a-f]{32})(?: (pre-compact))?$/.exec(fs.readFileSync(capturedTurnFilePath(config, sessionKey), 'utf8').trim());
    return match ? { key: match[1]!, by: match[2] === 'pre-compact' ? 'pre-compact' : 'stop' } : undefined;
  } catch {
    return undefined;
  }
}

/** The key of the session's last captured turn; undefined when none is recorded or the file is unreadable. */
export function readCapturedTurn(config: KiokuConfig, sessionKey: string): string | undefined {
  return readCapturedTurnEntry(config, sessionKey)?.key;
}

/** Not fsynced (one more per capture otherwise): a power cut costs at most one duplicate item. */
export function writeCapturedTurn(config: KiokuConfig, sessionKey: string, turnKey: string, by: CapturedBy = 'stop'): void {
  writeFileAtomicSync(capturedTurnFilePath(config, sessionKey), by === 'stop' ? `${turnKey}\n` : `${turnKey} ${by}\n`, { durable: false });
}
