import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { AssistantName, HookEventName } from '../../../common/hook-events.js';
import {
  MAX_LINE_BYTES,
  PROTOCOL_VERSION,
  encodeMessage,
  isStatusReply,
  parseReplyLine,
  type HookReply,
  type IpcReply,
  type IpcRequest,
  type StatusReply,
} from '../../../common/hook-protocol.js';
import { LineSplitter } from './line-splitter.js';
import { readToken } from './token.js';

/**
 * The hook side of the socket. It runs inside the hook process, so it imports node built-ins and
 * zod/mini only, and it never throws: every transport problem becomes a reason, and the hook
 * falls back to the files (STYLE.md: hooks fail open).
 */
export type IpcFailureReason = 'no-socket' | 'refused' | 'timeout' | 'closed' | 'bad-reply' | 'bad-token';

/**
 * `ok: true` means a valid reply arrived; the reply itself may still say `ok: false` (e.g.
 * 'handler-failed'), and then the caller falls back too. A 'bad-token' reply is turned into a
 * failure here because the caller's remedy differs: re-read the token file, or fall back.
 */
export type IpcResult<R extends IpcReply = IpcReply> = { ok: true; reply: R } | { ok: false; reason: IpcFailureReason; detail: string };

export interface IpcEndpoint {
  socketPath: string;
  tokenFile: string;
}

export function newRequestId(): string {
  return randomUUID();
}

/** One request, one reply, one connection, within `timeoutMs` from connect to the reply's newline. */
export function sendRequest(socketPath: string, request: IpcRequest, timeoutMs: number): Promise<IpcResult> {
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    const splitter = new LineSplitter(MAX_LINE_BYTES);
    const socket = net.createConnection(socketPath);
    const finish = (result: IpcResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const fail = (reason: IpcFailureReason, detail: string) => finish({ ok: false, reason, detail });
    const timer = setTimeout(() => fail('timeout', `no reply on ${socketPath} within ${timeoutMs} ms`), timeoutMs);

    socket.on('connect', () => {
      connected = true;
      socket.write(encodeMessage(request));
    });
    socket.on('data', (chunk: Buffer) => {
      const { lines, overflow } = splitter.push(chunk);
      const line = lines[0];
      if (line !== undefined) {
        const parsed = parseReplyLine(line);
        if (!parsed.ok) return fail('bad-reply', `${socketPath}: ${parsed.message}`);
        const reply = parsed.value;
        // An empty id: the server could not read ours (e.g. our line was too large).
        if (reply.id !== request.id && reply.id !== '') return fail('bad-reply', `${socketPath} answered request ${reply.id}, not ${request.id}`);
        if (!reply.ok && 'error' in reply && reply.error?.code === 'bad-token') return fail('bad-token', reply.error.message);
        return finish({ ok: true, reply });
      }
      if (overflow) fail('bad-reply', `${socketPath} sent a reply line over ${MAX_LINE_BYTES} bytes`);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (connected) return fail('closed', `${socketPath}: ${error.code ?? error.message}`);
      // ENOENT: nobody has ever listened here (or the file is gone); anything else: a stale
      // file, a permission problem, or a full backlog — all mean "do not wait for this app".
      if (error.code === 'ENOENT') return fail('no-socket', `no socket at ${socketPath}`);
      return fail('refused', `${socketPath}: ${error.code ?? error.message}`);
    });
    socket.on('close', () => {
      const partial = splitter.pendingBytes > 0 ? ` after ${splitter.pendingBytes} bytes of a reply` : '';
      fail('closed', `${socketPath} closed the connection${partial}`);
    });
  });
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
  const request: IpcRequest = { v: PROTOCOL_VERSION, id: input.id, token, kind: 'hook', assistant: input.assistant, event: input.event, payload: input.payload };
  if (input.env) request.env = input.env;
  const result = await sendRequest(endpoint.socketPath, request, timeoutMs);
  if (result.ok && isStatusReply(result.reply)) return { ok: false, reason: 'bad-reply', detail: `${endpoint.socketPath} answered a hook request with a status` };
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
  if (result.ok && isStatusReply(result.reply)) return { ok: false, reason: 'bad-reply', detail: `${endpoint.socketPath} answered a ping with a status` };
  return result as IpcResult<HookReply>;
}
