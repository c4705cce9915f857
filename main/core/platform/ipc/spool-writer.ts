import path from 'node:path';
import { PROTOCOL_VERSION, encodeMessage, type HookCall, type SpoolRecord } from '../../../../common/hook-protocol.js';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import { uniqueHex } from '../fs/unique-hex.js';
import { redactPayloadForSpool } from './spool-redaction.js';

/**
 * Writing events to `<state>/spool/` (APP-3): by the hook client when the app does not answer, and
 * by the daemon for every event that needs no answer.
 * Design notes: docs/design-notes.md, "main/core/platform/ipc/spool-writer.ts".
 */
export const SPOOL_PROCESSING = 'processing';
export const SPOOL_FAILED = 'failed';

const SPOOL_NAME_RE = /^\d{14}-\d{20}-\d+-[0-9a-f]{8}\.json$/;

export function spoolFileName(wallMs = Date.now(), monotonicNs = process.hrtime.bigint(), pid = process.pid): string {
  return `${String(wallMs).padStart(14, '0')}-${String(monotonicNs).padStart(20, '0')}-${pid}-${uniqueHex()}.json`;
}

/** Spool entries only: temp files of the atomic writer (`.name.tmp`) and anything else are skipped. */
export function isSpoolFileName(name: string): boolean {
  return SPOOL_NAME_RE.test(name);
}

/**
 * The event's own time: the hook's start (call.at) when it sent one and it reads as a date, else
 * `now`. Both deliveries of one event — the daemon's queue and the hook's spool after a wait that
 * ran out — must carry the same time, because the captured memory's id is made from it
 * (capture-writer.ts): dated by their own clocks they differed by the wait, and the quality bench
 * found a turn captured twice.
 */
export function eventTime(call: Pick<HookCall, 'at'>, now: Date): Date {
  const at = call.at ? new Date(call.at) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : now;
}

/**
 * Write one event atomically (temp file, fsync, rename, fsync the folder) and return its path.
 * Throws on I/O errors; a hook catches them and exits 0 anyway. `durable: false` leaves out the
 * fsyncs: the caller makes the file durable itself (syncWrittenFile) once it has answered.
 */
export function writeSpoolRecord(
  spoolDir: string,
  call: HookCall,
  spooledBy: SpoolRecord['spooledBy'],
  now: Date = new Date(),
  roleId?: string,
  durable = true,
): string {
  const at = eventTime(call, now);
  const record: SpoolRecord = {
    v: PROTOCOL_VERSION,
    eventId: call.eventId,
    assistant: call.assistant,
    event: call.event,
    payload: redactPayloadForSpool(call.payload),
    // Not redacted: only Kioku's own ROLE_*/KIOKU_* settings (kioku-hook.ts hookEnv), none of them
    // a secret, and the ingester builds its config from them (paths a pattern could mangle).
    env: call.env,
    spooledAt: at.toISOString(),
    spooledBy,
    ...(roleId ? { roleId } : {}),
  };
  const file = path.join(spoolDir, spoolFileName());
  writeFileAtomicSync(file, encodeMessage(record), { mode: 0o600, durable });
  return file;
}
