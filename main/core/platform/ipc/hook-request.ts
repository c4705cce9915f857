import type { AssistantName, HookEventName } from '../../../../common/hook-events.js';
import type { HookReply, HookRequest } from '../../../../common/hook-protocol.js';
import { PROTOCOL_VERSION } from '../../../../common/hook-wire.js';
import { sendLine, type SocketResult } from './socket-request.js';
import { readToken } from './token-file.js';

/**
 * The hook client's one request to the daemon, on its fast path (X-PERF: a hook may cost little
 * more than starting Node). Same wire format and failure reasons as ipc-client.ts, but it loads
 * node:net and node:fs only: no zod (the reply is one small object, checked by hand below; the
 * daemon behind a token is not an adversary that needs a schema library) and no node:crypto
 * (event ids below). Only type imports reach common/hook-protocol.ts.
 */
export interface FastHookInput {
  /** The event id; reuse it when spooling after a failure, so capture can dedupe. */
  id: string;
  assistant: AssistantName;
  event: HookEventName;
  payload: unknown;
  env?: Record<string, string>;
  /** When the hook started (see HookCall.at). */
  at?: string;
}

let counter = 0;

/**
 * A unique event id without node:crypto: pid, the nanosecond clock, a counter and randomness.
 * Unique across processes (pid + clock) and within one (counter); an event id is no secret.
 */
export function newEventId(): string {
  const random = Math.floor(Math.random() * 0x100000000)
    .toString(16)
    .padStart(8, '0');
  return `${process.pid.toString(36)}-${process.hrtime.bigint().toString(36)}-${(counter++).toString(36)}-${random}`;
}

/** The reply, checked field by field; a string saying what is wrong otherwise. */
export function readHookReply(line: string): HookReply | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'the reply is not JSON';
  }
  if (!value || typeof value !== 'object') return 'the reply is not an object';
  const reply = value as Record<string, unknown>;
  if (reply.v !== PROTOCOL_VERSION) return `the reply speaks protocol ${String(reply.v)}, not ${PROTOCOL_VERSION}`;
  if (typeof reply.id !== 'string' || typeof reply.ok !== 'boolean' || typeof reply.stdout !== 'string' || reply.exitCode !== 0)
    return 'the reply is not a hook reply';
  const error = reply.error as Record<string, unknown> | undefined | null;
  if (
    error !== undefined &&
    (typeof error !== 'object' || error === null || typeof error.code !== 'string' || typeof error.message !== 'string')
  )
    return 'the reply has a malformed error';
  // Only for traces: a daemon that sends something else for it still answered.
  if (reply.handledMs !== undefined && typeof reply.handledMs !== 'number') delete reply.handledMs;
  return reply as unknown as HookReply;
}

/** The settings that shape an answer and may differ per terminal (ROLE_NAME…), sent for the daemon to answer with. */
export function hookRequestEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  // Names first, then only Kioku's values: every value read from process.env is a call into Node.
  for (const key of Object.keys(env)) {
    if (!key.startsWith('ROLE_') && !key.startsWith('KIOKU_')) continue;
    const value = env[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** `onSent`: see sendLine (socket-request.ts). */
export function requestHookFast(
  endpoint: { socketPath: string; tokenFile: string },
  input: FastHookInput,
  timeoutMs: number,
  onSent?: () => void,
): Promise<SocketResult<HookReply>> {
  const token = readToken(endpoint.tokenFile);
  // The server writes the token before it listens: no token file, no app on this memory home.
  if (token === undefined) {
    onSent?.();
    return Promise.resolve({
      ok: false,
      reason: 'no-socket',
      detail: `no token at ${endpoint.tokenFile}: the app has not run on this memory home`,
    });
  }
  const request: HookRequest = {
    v: PROTOCOL_VERSION,
    id: input.id,
    token,
    kind: 'hook',
    assistant: input.assistant,
    event: input.event,
    payload: input.payload,
  };
  if (input.env) request.env = input.env;
  if (input.at) request.at = input.at;
  return sendLine(endpoint.socketPath, request.id, `${JSON.stringify(request)}\n`, timeoutMs, readHookReply, undefined, onSent);
}
