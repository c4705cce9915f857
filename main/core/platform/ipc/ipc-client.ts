import { randomUUID } from 'node:crypto';
import type { AssistantName, HookEventName } from '../../../../common/hook-events.js';
import {
  PROTOCOL_VERSION,
  encodeMessage,
  isStatusReply,
  parseReplyLine,
  type HookReply,
  type IpcReply,
  type IpcRequest,
  type StatusReply,
} from '../../../../common/hook-protocol.js';
import { sendLine, type IpcFailureReason, type SocketResult } from './socket-request.js';
import { readToken } from './token-file.js';

/**
 * The client side of the socket for the CLI, tests and the hook's status checks: every reply
 * validated with the protocol's zod schema. (The hook's own per-event request is hook-request.ts,
 * which avoids zod and node:crypto on the hot path.) Never throws: every transport problem
 * becomes a reason (STYLE.md: hooks fail open).
 */
/**
 * `ok: true` means a valid reply arrived; the reply itself may still say `ok: false` (e.g.
 * 'handler-failed'), and then the caller falls back too. A 'bad-token' reply is turned into a
 * failure (socket-request.ts) because the caller's remedy differs: re-read the token file, or
 * fall back.
 */
export type IpcResult<R extends IpcReply = IpcReply> = SocketResult<R>;
export type { IpcFailureReason };

export interface IpcEndpoint {
  socketPath: string;
  tokenFile: string;
}

export function newRequestId(): string {
  return randomUUID();
}

function checkReply(line: string): IpcReply | string {
  const parsed = parseReplyLine(line);
  return parsed.ok ? parsed.value : parsed.message;
}

/** One request, one reply, one connection, within `timeoutMs` from connect to the reply's newline. */
export function sendRequest(socketPath: string, request: IpcRequest, timeoutMs: number): Promise<IpcResult> {
  return sendLine(socketPath, request.id, encodeMessage(request), timeoutMs, checkReply);
}

function tokenOrFailure(endpoint: IpcEndpoint): string | { ok: false; reason: 'no-socket'; detail: string } {
  const token = readToken(endpoint.tokenFile);
  // The server writes the token before it listens: no token file, no app on this memory home.
  return token ?? { ok: false, reason: 'no-socket', detail: `no token at ${endpoint.tokenFile}: the app has not run on this memory home` };
}

export interface HookRequestInput {
  /** The event id; reuse it when spooling after a failure, so capture can dedupe. */
  id: string;
  assistant: AssistantName;
  event: HookEventName;
  payload: unknown;
  env?: Record<string, string>;
}

export async function requestHook(endpoint: IpcEndpoint, input: HookRequestInput, timeoutMs: number): Promise<IpcResult<HookReply>> {
  const token = tokenOrFailure(endpoint);
  if (typeof token !== 'string') return token;
  const request: IpcRequest = {
    v: PROTOCOL_VERSION,
    id: input.id,
    token,
    kind: 'hook',
    assistant: input.assistant,
    event: input.event,
    payload: input.payload,
  };
  if (input.env) request.env = input.env;
  const result = await sendRequest(endpoint.socketPath, request, timeoutMs);
  if (result.ok && isStatusReply(result.reply))
    return { ok: false, reason: 'bad-reply', detail: `${endpoint.socketPath} answered a hook request with a status` };
  return result as IpcResult<HookReply>;
}

/** The daemon's status. Readiness is this reply's `ready`, never a guess from timing. */
export async function requestStatus(endpoint: IpcEndpoint, timeoutMs: number): Promise<IpcResult<StatusReply>> {
  const token = tokenOrFailure(endpoint);
  if (typeof token !== 'string') return token;
  const result = await sendRequest(endpoint.socketPath, { v: PROTOCOL_VERSION, id: newRequestId(), token, kind: 'status' }, timeoutMs);
  if (!result.ok) return result;
  if (isStatusReply(result.reply)) return { ok: true, reply: result.reply };
  const why = result.reply.error ? `${result.reply.error.code}: ${result.reply.error.message}` : 'no status in the reply';
  return { ok: false, reason: 'bad-reply', detail: `${endpoint.socketPath}: ${why}` };
}

export async function ping(endpoint: IpcEndpoint, timeoutMs: number): Promise<IpcResult<HookReply>> {
  const token = tokenOrFailure(endpoint);
  if (typeof token !== 'string') return token;
  const result = await sendRequest(endpoint.socketPath, { v: PROTOCOL_VERSION, id: newRequestId(), token, kind: 'ping' }, timeoutMs);
  if (result.ok && isStatusReply(result.reply))
    return { ok: false, reason: 'bad-reply', detail: `${endpoint.socketPath} answered a ping with a status` };
  return result as IpcResult<HookReply>;
}
