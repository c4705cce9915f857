import { MAX_LINE_BYTES } from '../../../../common/hook-wire.js';
import { traceMark } from '../config/trace.js';
import type { LineConnection, LineConnectionEvents, LineConnector } from './line-connection.js';
import { connectWithNet } from './net-connection.js';
import { rawPipeConnector } from './raw-pipe-connection.js';
import { LineSplitter } from './line-splitter.js';
import { checkSocketTrust } from './socket-trust.js';

/**
 * One request line, one reply line, one connection, within `timeoutMs` from connect to the reply's
 * newline.
 * Design notes: docs/design-notes.md, "main/core/platform/ipc/socket-request.ts".
 */
export type IpcFailureReason = 'no-socket' | 'refused' | 'timeout' | 'closed' | 'bad-reply' | 'bad-token' | 'untrusted';

export type SocketResult<R> = { ok: true; reply: R } | { ok: false; reason: IpcFailureReason; detail: string };

/** What every reply carries, whatever its kind. */
interface ReplyBase {
  id: string;
  ok: boolean;
  error?: { code: string; message: string } | undefined;
}

/**
 * The raw pipe handle where it was checked, node:net elsewhere (line-connection.ts); node:net too
 * when the handle cannot even be made (it throws before anything is sent).
 */
export function defaultConnector(): LineConnector {
  const raw = rawPipeConnector();
  if (!raw) return connectWithNet;
  return (socketPath, events) => {
    try {
      return raw(socketPath, events);
    } catch {
      return connectWithNet(socketPath, events);
    }
  };
}

/** Whether a connect can wait (Windows named pipes); see sendLine's deadline. */
const CONNECT_MAY_WAIT = process.platform === 'win32';

export function sendLine<R extends ReplyBase>(
  socketPath: string,
  requestId: string,
  line: string,
  timeoutMs: number,
  parse: (line: string) => R | string,
  connect?: LineConnector,
  /**
   * Called once: when the line is on the socket, or when the request ended without it (no socket,
   * refused). The hook client resolves its settings only then, while the daemon works
   * (hooks/early-request.ts): until the loop turns, the connection is not even made.
   */
  onSent?: () => void,
): Promise<SocketResult<R>> {
  // Before connecting, so nothing — not even the token — reaches a socket another user serves.
  let told = false;
  const tellSent = () => {
    if (told) return;
    told = true;
    onSent?.();
  };
  const trust = checkSocketTrust(socketPath);
  if (!trust.ok) {
    tellSent();
    if (trust.missing) return Promise.resolve({ ok: false, reason: 'no-socket', detail: `no socket at ${socketPath}` });
    return Promise.resolve({ ok: false, reason: 'untrusted', detail: `${trust.why}: not sending to it` });
  }
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    const splitter = new LineSplitter(MAX_LINE_BYTES);
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: SocketResult<R>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection?.destroy();
      resolve(result);
      tellSent();
    };
    const fail = (reason: IpcFailureReason, detail: string) => finish({ ok: false, reason, detail });
    /**
     * The deadline, unref'd: while it runs the connection is open (or connecting), which keeps
     * the process alive, and a reply must not wait on a timer to end it. Armed once the request
     * is on its way where a connect is settled at once (see below): the first timer of a process
     * costs 0.3–0.4 ms to make, which then overlaps the daemon's work instead of coming before it.
     */
    const arm = () => {
      if (timer || settled) return;
      timer = setTimeout(() => fail('timeout', `no reply on ${socketPath} within ${timeoutMs} ms`), timeoutMs);
      timer.unref();
    };

    let connection: LineConnection | undefined;
    const events: LineConnectionEvents = {
      connect() {
        // Phases of a round trip for the benches' traces (issue 17: where a hook's or recall's time goes).
        traceMark('socket-connected');
        connected = true;
        connection?.write(line);
        arm();
        tellSent();
      },
      data(chunk) {
        const { lines, overflow } = splitter.push(chunk);
        const first = lines[0];
        if (first !== undefined) {
          traceMark('socket-replied');
          const reply = parse(first);
          traceMark('reply-parsed');
          if (typeof reply === 'string') return fail('bad-reply', `${socketPath}: ${reply}`);
          // An empty id: the server could not read ours (e.g. our line was too large).
          if (reply.id !== requestId && reply.id !== '')
            return fail('bad-reply', `${socketPath} answered request ${reply.id}, not ${requestId}`);
          if (!reply.ok && reply.error?.code === 'bad-token') return fail('bad-token', reply.error.message);
          return finish({ ok: true, reply });
        }
        if (overflow) fail('bad-reply', `${socketPath} sent a reply line over ${MAX_LINE_BYTES} bytes`);
      },
      error(code, message) {
        if (connected) return fail('closed', `${socketPath}: ${code ?? message}`);
        // ENOENT: nobody has ever listened here (or the file is gone); anything else: a stale
        // file, a permission problem, or a full backlog — all mean "do not wait for this app".
        if (code === 'ENOENT') return fail('no-socket', `no socket at ${socketPath}`);
        return fail('refused', `${socketPath}: ${code ?? message}`);
      },
      close() {
        const partial = splitter.pendingBytes > 0 ? ` after ${splitter.pendingBytes} bytes of a reply` : '';
        fail('closed', `${socketPath} closed the connection${partial}`);
      },
    };
    try {
      // Made only now: loading the pipe bindings is wasted on a socket that is not there (a recall
      // without the daemon, issue 17).
      connection = (connect ?? defaultConnector())(socketPath, events);
    } catch (error) {
      fail('refused', `${socketPath}: ${(error as Error).message}`);
    }
    // A Unix socket's connect, or its failure, is reported on the next turn of the loop (the
    // kernel answers at once, even for a daemon that is stopped: its backlog takes the connection).
    // A Windows named pipe that is busy can keep a connect waiting: there the deadline starts now.
    if (CONNECT_MAY_WAIT) arm();
  });
}
