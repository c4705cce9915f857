/**
 * One client connection to a Unix socket, as socket-request.ts needs it: connect, write a line,
 * receive bytes, close. Two transports give it: node:net (net-connection.ts), and libuv's pipe
 * handle without node:net (raw-pipe-connection.ts), which a short-lived process starts about
 * 4 ms sooner. Design notes: docs/design-notes.md, "main/core/platform/ipc/raw-pipe-connection.ts".
 */
export interface LineConnectionEvents {
  connect(): void;
  data(chunk: Buffer): void;
  /** `code`: the system error's name (ENOENT, ECONNREFUSED…) when there is one. */
  error(code: string | undefined, message: string): void;
  /** The peer ended the connection (after `error`, too, when there was one). */
  close(): void;
}

export interface LineConnection {
  write(text: string): void;
  /** Close now; no event is emitted after this. */
  destroy(): void;
}

export type LineConnector = (socketPath: string, events: LineConnectionEvents) => LineConnection;
