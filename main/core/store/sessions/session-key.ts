import { createHash } from 'node:crypto';
import path from 'node:path';
import type { HookEvent } from '../../../../common/hook-events.js';

/**
 * Which session an event belongs to, as a safe file name (seed 000 §記憶歸屬: "狀態檔以
 * session_id 命名（取不到時退回 transcript 檔名）"). Session ids are UUIDs in practice and pass
 * through unchanged, so `.sessions/<id>.role` names match the ones seed 000's scripts wrote.
 * Anything else is made safe: characters outside [A-Za-z0-9._-] become `_`, leading dots go (no
 * hidden files, no `..`), and a short hash of the original is appended whenever the text had to
 * change, so two different ids never collapse into one file.
 */
const MAX_KEY_LENGTH = 120;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 10);
}

export function safeSessionKey(raw: string): string {
  const cleaned = raw
    .normalize('NFC')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, MAX_KEY_LENGTH);
  if (!cleaned) return `session-${shortHash(raw)}`;
  if (cleaned !== raw || WINDOWS_RESERVED.test(cleaned)) return `${cleaned}-${shortHash(raw)}`;
  return cleaned;
}

/**
 * The session key: the session id, else the transcript's file name without its extension
 * (Claude Code names transcripts `<session id>.jsonl`, so both routes give the same key there).
 * Undefined when the event carries neither: such a session cannot keep state.
 */
export function sessionKeyOf(event: Pick<HookEvent, 'sessionId' | 'transcriptPath'>): string | undefined {
  const id = event.sessionId?.trim();
  if (id) return safeSessionKey(id);
  const transcript = event.transcriptPath?.trim();
  if (!transcript) return undefined;
  const base = path.basename(transcript);
  const withoutExtension = base.replace(/\.[^.]*$/, '');
  return safeSessionKey(withoutExtension || base);
}
