import { PROTOCOL_VERSION } from '../../../../common/hook-wire.js';
import type { HookReply } from '../../../../common/hook-protocol.js';
import type { RecallResult } from '../../store/index/recall.js';

/**
 * The reply to a `recall` request (issue 17): the recall's result as the CLI would have computed
 * it, which the CLI prints exactly as its own. Kept out of the zod schemas: only the CLI reads
 * it, from a daemon behind the token, and checks its shape by hand (no zod on its start).
 */
export interface RecallReply {
  v: typeof PROTOCOL_VERSION;
  id: string;
  ok: true;
  recall: RecallResult;
  /** How long the daemon took over the request (ms), for KIOKU_TRACE; read by hand, so an older CLI ignores it. */
  handledMs?: number;
}

/** What the daemon's recall handler gives the socket: the result, and what to do once it is sent. */
export interface RecallAnswer {
  result: RecallResult;
  /** true: the reply was written to the client (write the hits back); false: it was not (release). */
  delivered(sent: boolean): void;
}

export function recallReply(id: string, result: RecallResult): RecallReply {
  return { v: PROTOCOL_VERSION, id, ok: true, recall: result };
}

const WRITE_BACK_STATUSES = new Set(['written', 'disabled', 'nothing-returned', 'skipped-locked']);

/** A recall reply, an error reply (the CLI recalls itself), or what is wrong with the line. */
export function readRecallReply(line: string): RecallReply | HookReply | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'the reply is not JSON';
  }
  if (!value || typeof value !== 'object') return 'the reply is not an object';
  const reply = value as Record<string, unknown>;
  if (reply.v !== PROTOCOL_VERSION) return `the reply speaks protocol ${String(reply.v)}, not ${PROTOCOL_VERSION}`;
  if (typeof reply.id !== 'string' || typeof reply.ok !== 'boolean') return 'the reply has no id or ok';
  if (!reply.ok) {
    const error = reply.error as Record<string, unknown> | undefined;
    if (!error || typeof error.code !== 'string' || typeof error.message !== 'string') return 'the error reply has no code or message';
    return reply as unknown as HookReply;
  }
  const recall = reply.recall as Record<string, unknown> | undefined;
  if (!recall || !Array.isArray(recall.memories) || !Array.isArray(recall.problems) || !WRITE_BACK_STATUSES.has(recall.writeBack as string))
    return 'the reply is not a recall result';
  if (
    !recall.memories.every(
      (m) =>
        m &&
        typeof m === 'object' &&
        typeof (m as { summary?: unknown }).summary === 'string' &&
        typeof (m as { path?: unknown }).path === 'string',
    )
  )
    return 'a recalled memory has no summary or path';
  return reply as unknown as RecallReply;
}
