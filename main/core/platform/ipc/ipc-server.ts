import net from 'node:net';
import { describeError } from '../../../../common/errors.js';
import { ANSWERED_EVENTS } from '../../../../common/hook-events.js';
import {
  MAX_LINE_BYTES,
  encodeMessage,
  errorReply,
  okReply,
  parseRequestLine,
  statusReply,
  type DaemonStatus,
  type HookCall,
  type IpcReply,
  type IpcRequest,
  type RecallRequest,
} from '../../../../common/hook-protocol.js';
import type { Logger } from '../config/log.js';
import { LineSplitter } from './line-splitter.js';
import { listenExclusive, removeSocketIfOurs, socketIdentity } from './socket-claim.js';
import { tokensEqual } from './token.js';
import { recallReply, type RecallAnswer, type RecallReply } from './recall-wire.js';

export interface IpcHandlers {
  /** Answered events (ANSWERED_EVENTS): the text the hook prints. */
  answer(call: HookCall): Promise<{ stdout: string }>;
  /**
   * Events that need no answer: make them durable and return. The reply waits only for this, so
   * it must be quick (the daemon writes one spool file); the real work happens later, in order.
   */
  enqueue(call: HookCall): Promise<void> | void;
  status(): DaemonStatus;
  /**
   * `kioku memory recall` (issue 17); absent: answered 'no-handler' and the CLI recalls itself.
   * `delivered` is called once the reply is written (false: the client is gone), so the hits are
   * written back only for an answer someone received.
   */
  recall?(request: RecallRequest): Promise<RecallAnswer>;
}

export interface IpcServerOptions {
  socketPath: string;
  /** The state dir: holds the lock used while replacing a stale socket. */
  stateDir: string;
  token: string;
  logger: Logger;
  handlers: IpcHandlers;
  /** Close connections idle this long (a client that connected and went silent). Default 30 s. */
  idleTimeoutMs?: number;
  maxLineBytes?: number;
  /** Connections served at once; one more is answered 'busy' and closed. Default MAX_CONNECTIONS. */
  maxConnections?: number;
  /**
   * Bytes one connection may hold in the daemon — requests received but not yet answered, a
   * partial line, replies the client has not read — before it is answered 'busy' and closed.
   * Default: one full line and a reply's worth of room (maxLineBytes + 1 MiB).
   */
  maxConnectionBytes?: number;
  /** Requests one connection may have in flight at once. Default MAX_REQUESTS_PER_CONNECTION. */
  maxRequestsPerConnection?: number;
}

/**
 * Hooks open one short connection per event, so even many assistants at once stay far below
 * this; a client that opens more (a loop, a bug, something hostile) is refused, not served.
 */
export const MAX_CONNECTIONS = 64;
/** The protocol is one request per connection; a few pipelined ones are tolerated, no more. */
export const MAX_REQUESTS_PER_CONNECTION = 8;
/** How long a refused client has to read why before its connection is closed. */
const REFUSED_GRACE_MS = 2_000;

export interface IpcServer {
  readonly socketPath: string;
  /** Stop accepting, let requests in flight finish (up to graceMs), remove our socket file. */
  close(graceMs?: number): Promise<void>;
}

function hookCallOf(request: Extract<IpcRequest, { kind: 'hook' }>): HookCall {
  const call: HookCall = {
    eventId: request.id,
    assistant: request.assistant,
    event: request.event,
    payload: request.payload,
    env: request.env ?? {},
  };
  if (request.at) call.at = request.at;
  return call;
}

/**
 * The app side of the hook socket (APP-3). Every line is validated and every request answered —
 * a malformed or hostile message gets an error reply, never an exception that could take the
 * app down with it.
 */
export async function startIpcServer(options: IpcServerOptions): Promise<IpcServer> {
  const { socketPath, token, logger, handlers } = options;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const connections = new Set<net.Socket>();
  const inFlight = new Set<Promise<void>>();

  /** A reply, and for a recall what to do once it is (or cannot be) written. */
  interface Outgoing {
    reply: IpcReply | RecallReply;
    delivered?: (sent: boolean) => void;
  }

  async function recallReplyTo(request: RecallRequest): Promise<Outgoing> {
    if (!handlers.recall)
      return { reply: errorReply(request.id, 'no-handler', 'this app does not answer recalls; recall from the index directly') };
    try {
      const answer = await handlers.recall(request);
      return { reply: recallReply(request.id, answer.result), delivered: answer.delivered };
    } catch (error) {
      logger.error('ipc', `recall ${request.id}: ${describeError(error)}`);
      return {
        reply: errorReply(request.id, 'handler-failed', `the recall failed: ${describeError(error)}; recall from the index directly`),
      };
    }
  }

  async function outgoingFor(request: IpcRequest): Promise<Outgoing> {
    if (request.kind === 'recall' && tokensEqual(request.token, token)) return recallReplyTo(request);
    return { reply: await replyTo(request) };
  }

  async function replyTo(request: IpcRequest): Promise<IpcReply> {
    if (!tokensEqual(request.token, token)) {
      return errorReply(
        request.id,
        'bad-token',
        "the token does not match this app's token file; read it again from <memory home>/.kioku/token",
      );
    }
    if (request.kind === 'ping') return okReply(request.id, '');
    if (request.kind === 'status') return statusReply(request.id, handlers.status());
    if (request.kind === 'recall') return errorReply(request.id, 'no-handler', 'recall is answered by outgoingFor');
    const call = hookCallOf(request);
    if (ANSWERED_EVENTS.has(request.event)) {
      try {
        return okReply(request.id, (await handlers.answer(call)).stdout);
      } catch (error) {
        logger.error('ipc', `${request.event} ${request.id}: the handler failed: ${describeError(error)}`);
        return errorReply(request.id, 'handler-failed', `${request.event} could not be answered: ${describeError(error)}`);
      }
    }
    try {
      await handlers.enqueue(call);
      return okReply(request.id, '');
    } catch (error) {
      logger.error('ipc', `${request.event} ${request.id}: could not queue it: ${describeError(error)}`);
      return errorReply(request.id, 'enqueue-failed', `${request.event} could not be queued: ${describeError(error)}; spool it instead`);
    }
  }

  function send(socket: net.Socket, reply: IpcReply | RecallReply, delivered?: (sent: boolean) => void): void {
    if (socket.destroyed || !socket.writable) return delivered?.(false);
    let line = `${JSON.stringify(reply)}\n`;
    let complete = true;
    if (Buffer.byteLength(line) - 1 > maxLineBytes) {
      line = encodeMessage(
        errorReply(reply.id, 'too-large', `the reply is ${Buffer.byteLength(line)} bytes, over the ${maxLineBytes}-byte line limit`),
      );
      complete = false;
    }
    if (!delivered) socket.write(line);
    else socket.write(line, (error) => delivered(!error && complete));
  }

  /** What one connection holds in the daemon (see maxConnectionBytes). */
  interface Connection {
    socket: net.Socket;
    splitter: LineSplitter;
    /** Bytes of request lines received and not yet answered. */
    unansweredBytes: number;
    inFlight: number;
  }

  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  const maxConnectionBytes = options.maxConnectionBytes ?? maxLineBytes + 1024 * 1024;
  const maxRequests = options.maxRequestsPerConnection ?? MAX_REQUESTS_PER_CONNECTION;

  /** Sockets answered 'busy': not counted as served, but closed with the server all the same. */
  const refused = new Set<net.Socket>();

  /**
   * Answer 'busy' and stop reading: what the client sends after is dropped, not buffered. The
   * client has a moment to read the answer; one that keeps the connection open is cut off.
   */
  function refuse(socket: net.Socket, message: string): void {
    socket.removeAllListeners('data');
    if (socket.writable) socket.end(encodeMessage(errorReply('', 'busy', message)));
    socket.resume();
    refused.add(socket);
    socket.once('close', () => refused.delete(socket));
    socket.setTimeout(REFUSED_GRACE_MS, () => socket.destroy());
  }

  function handleLine(conn: Connection, line: string, bytes: number): void {
    const parsed = parseRequestLine(line);
    if (!parsed.ok) {
      logger.warn('ipc', `rejected a request (${parsed.code}): ${parsed.message}`);
      send(conn.socket, errorReply(parsed.id, parsed.code, parsed.message));
      return;
    }
    conn.unansweredBytes += bytes;
    conn.inFlight += 1;
    const began = performance.now();
    // The daemon's share of a round trip, for the client's KIOKU_TRACE (hooks and recalls).
    const timed = (reply: Outgoing['reply']) =>
      (parsed.value.kind === 'hook' && 'stdout' in reply) || (parsed.value.kind === 'recall' && 'recall' in reply)
        ? { ...reply, handledMs: Math.round((performance.now() - began) * 100) / 100 }
        : reply;
    const work = outgoingFor(parsed.value)
      .catch((error: unknown): Outgoing => ({ reply: errorReply(parsed.value.id, 'handler-failed', describeError(error)) }))
      .then(({ reply, delivered }) => send(conn.socket, timed(reply), delivered))
      .finally(() => {
        conn.unansweredBytes -= bytes;
        conn.inFlight -= 1;
      });
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  }

  /** Why this connection may not hold `bytes` more (a new line: `newRequest`), or undefined. */
  function overLimit(conn: Connection, bytes: number, newRequest: boolean): string | undefined {
    if (newRequest && conn.inFlight >= maxRequests)
      return `this connection already has ${conn.inFlight} requests waiting for their replies (limit ${maxRequests}); send one request per connection`;
    const held = conn.unansweredBytes + bytes + conn.splitter.pendingBytes + conn.socket.writableLength;
    if (held > maxConnectionBytes)
      return `this connection would hold ${held} bytes in the app (limit ${maxConnectionBytes}); send one request per connection and read its reply`;
    return undefined;
  }

  function refuseConnection(conn: Connection, why: string): void {
    logger.warn('ipc', `closed a connection: ${why}`);
    refuse(conn.socket, why);
  }

  let refusingConnections = false;
  function serve(socket: net.Socket): void {
    // A client that vanished mid-reply (EPIPE, ECONNRESET) has nothing left to be told.
    socket.on('error', () => socket.destroy());
    if (connections.size >= maxConnections) {
      // Logged once per burst: a flood of connections must not become a flood of log lines.
      if (!refusingConnections) logger.warn('ipc', `refusing connections: ${maxConnections} already open`);
      refusingConnections = true;
      refuse(socket, `the app already serves ${maxConnections} connections; try again later (the hook answers from the files meanwhile)`);
      return;
    }
    refusingConnections = false;
    connections.add(socket);
    const conn: Connection = { socket, splitter: new LineSplitter(maxLineBytes), unansweredBytes: 0, inFlight: 0 };
    socket.setTimeout(options.idleTimeoutMs ?? 30_000, () => socket.destroy());
    socket.on('close', () => connections.delete(socket));
    socket.on('data', (chunk: Buffer) => {
      const { lines, overflow } = conn.splitter.push(chunk);
      for (const line of lines) {
        const bytes = Buffer.byteLength(line);
        const why = overLimit(conn, bytes, true);
        if (why) return refuseConnection(conn, why);
        handleLine(conn, line, bytes);
      }
      // The start of a next line, buffered on top of what this connection already holds.
      const why = overflow ? undefined : overLimit(conn, 0, false);
      if (why) return refuseConnection(conn, why);
      if (overflow) {
        logger.warn('ipc', `rejected a request line over ${maxLineBytes} bytes and closed its connection`);
        socket.removeAllListeners('data');
        socket.end(
          encodeMessage(errorReply('', 'too-large', `a request line is over the ${maxLineBytes}-byte limit; send smaller payloads`)),
        );
        // Drop the rest of what the client keeps sending instead of buffering it.
        socket.resume();
      }
    });
  }

  const server = net.createServer(serve);
  await listenExclusive(server, socketPath, options.stateDir, logger);
  // Only now: errors while claiming the socket are listenExclusive's to report.
  server.on('error', (error) => logger.error('ipc', `socket ${socketPath}: ${describeError(error)}`));
  const identity = socketIdentity(socketPath);
  logger.info('ipc', `listening on ${socketPath}`);

  let closing: Promise<void> | undefined;
  return {
    socketPath,
    close(graceMs = 2_000) {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
        await Promise.race([Promise.allSettled([...inFlight]), grace]);
        for (const socket of [...connections, ...refused]) socket.destroy();
        await closed;
        removeSocketIfOurs(socketPath, identity);
      })();
      return closing;
    },
  };
}
