import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type HookReply } from '../../common/hook-protocol.js';
import { fixedClock } from '../../main/core/platform/config/clock.js';
import { createLogger } from '../../main/core/platform/config/log.js';
import { ping } from '../../main/core/platform/ipc/ipc-client.js';
import { startIpcServer, type IpcHandlers, type IpcServer, type IpcServerOptions } from '../../main/core/platform/ipc/ipc-server.js';
import { ensureToken } from '../../main/core/platform/ipc/token.js';
import { waitFor } from '../ipc/daemon-kit.js';

/**
 * Issue 14, item 5: the IPC server against a client that is careless or hostile — too many
 * connections, requests piled up on one connection, a multi-megabyte line that is not a request.
 * It refuses with a clear error, keeps serving everyone else, and never echoes a payload into
 * its reply or its log. The server runs in this process (the daemon runs the same code); every
 * wait has a deadline that fails the test, never a timing assertion.
 */
const REPLY_WAIT_MS = 20_000;

let dir: string;
let server: IpcServer | undefined;
let token: string;
const clients: net.Socket[] = [];
/** Resolved at the end of each test: the answers a test keeps hanging. */
let release: () => void;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-ipc-limits-'));
  token = ensureToken(path.join(dir, 'token'));
});
afterEach(async () => {
  release?.();
  for (const client of clients.splice(0)) client.destroy();
  await server?.close(100);
  server = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

const endpoint = () => ({ socketPath: path.join(dir, 's.sock'), tokenFile: path.join(dir, 'token') });
const logFile = () => path.join(dir, 'logs', 'kioku.log');

async function serve(options: Partial<IpcServerOptions> = {}, answer?: IpcHandlers['answer']): Promise<void> {
  const hanging = new Promise<void>((resolve) => (release = resolve));
  server = await startIpcServer({
    socketPath: endpoint().socketPath,
    stateDir: dir,
    token,
    logger: createLogger({ clock: fixedClock('2026-03-10T14:00:00+08:00'), file: logFile() }),
    handlers: {
      // By default an answer never comes (until the test ends): requests stay in flight.
      answer: answer ?? (() => hanging.then(() => ({ stdout: '' }))),
      enqueue: () => undefined,
      status: () => ({
        pid: process.pid,
        startedAt: '',
        version: 'test',
        ready: true,
        memoryHome: dir,
        spoolPending: 0,
        queue: { busy: false, handled: 0, failed: 0 },
      }),
    },
    ...options,
  });
}

/** A raw connection, kept open until the test ends. */
function connect(): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(endpoint().socketPath, () => resolve(socket));
    socket.on('error', reject);
    clients.push(socket);
  });
}

/** Write raw data on a connection; the first reply line that comes back (or a failed test). */
function firstReply(socket: net.Socket, data: string | Buffer): Promise<HookReply> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`no reply within ${REPLY_WAIT_MS} ms (got ${JSON.stringify(text.slice(0, 200))})`)),
      REPLY_WAIT_MS,
    );
    socket.on('error', () => undefined); // writing past a server that answered and closed
    socket.on('data', (chunk) => {
      text += chunk.toString();
      const newline = text.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      resolve(JSON.parse(text.slice(0, newline)) as HookReply);
    });
    socket.write(data);
  });
}

const hookLine = (id: string, prompt = '') =>
  `${JSON.stringify({ v: PROTOCOL_VERSION, id, token, kind: 'hook', assistant: 'claude', event: 'session-start', payload: { session_id: 's', prompt } })}\n`;
const pingLine = (id: string) => `${JSON.stringify({ v: PROTOCOL_VERSION, id, token, kind: 'ping' })}\n`;

/** No run of the payload's letter anywhere near a payload's length. */
const ECHO = /(x{40}|y{40})/;

describe('connections and bytes per connection are capped', () => {
  it('answers the connection over the cap with busy and closes it, and serves again once others leave', async () => {
    await serve({ maxConnections: 3 });
    const held = await Promise.all([connect(), connect(), connect()]);
    const reply = await firstReply(await connect(), pingLine('over'));
    expect(reply).toMatchObject({ ok: false, exitCode: 0, error: { code: 'busy' } });
    expect(reply.error?.message).toMatch(/already serves 3 connections/);
    for (const socket of held) socket.destroy();
    // Served again as soon as the server has seen them go (no time asserted, only the outcome).
    await waitFor(
      async () => (await ping(endpoint(), REPLY_WAIT_MS)).ok || undefined,
      'a ping to be answered after the held connections closed',
    );
  });

  it('refuses a connection that piles up unanswered requests past its byte limit, and keeps serving others', async () => {
    await serve({ maxConnectionBytes: 64 * 1024 });
    const socket = await connect();
    // Four pipelined 20 KB requests whose answers never come: the fourth would hold over 64 KB.
    const lines = ['a', 'b', 'c', 'd'].map((id) => hookLine(id, 'x'.repeat(20_000))).join('');
    const reply = await firstReply(socket, lines);
    expect(reply).toMatchObject({ id: '', ok: false, error: { code: 'busy' } });
    expect(reply.error?.message).toMatch(/would hold \d+ bytes in the app \(limit 65536\)/);
    expect((await ping(endpoint(), REPLY_WAIT_MS)).ok).toBe(true);
  });

  it('refuses a connection with too many requests in flight, and keeps serving others', async () => {
    await serve({ maxRequestsPerConnection: 4 });
    const reply = await firstReply(await connect(), ['1', '2', '3', '4', '5'].map((id) => hookLine(id)).join(''));
    expect(reply).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(reply.error?.message).toMatch(/already has 4 requests waiting/);
    expect((await ping(endpoint(), REPLY_WAIT_MS)).ok).toBe(true);
  });
});

describe('no payload is echoed into a reply or the log', () => {
  it('a 4 MB JSON string instead of a request: the reply and the log say what it was, not what it said', async () => {
    await serve();
    const reply = await firstReply(await connect(), `${JSON.stringify('x'.repeat(4 * 1024 * 1024))}\n`);
    expect(reply.error?.code).toBe('bad-request');
    expect(reply.error?.message).toMatch(/got a string of 4194304 characters/);
    expect(reply.error?.message).not.toMatch(ECHO);
    const log = fs.readFileSync(logFile(), 'utf8');
    expect(log).toMatch(/rejected a request \(bad-request\)/);
    expect(log).not.toMatch(ECHO);
  });

  it('a line that is not JSON: no quoted snippet of it', async () => {
    await serve();
    // V8's own message would quote the line's first characters: the secret.
    const reply = await firstReply(await connect(), 'hunter2 is my password\n');
    expect(reply.error?.code).toBe('bad-json');
    expect(reply.error?.message).not.toMatch(/hunter2|password/);
    expect(fs.readFileSync(logFile(), 'utf8')).not.toMatch(/hunter2|password/);
  });

  it('a handler error that quotes a huge payload is cut to a short prefix in the reply and the log', async () => {
    await serve({}, (call) => Promise.reject(new Error(`cannot answer ${JSON.stringify(call.payload)}`)));
    const reply = await firstReply(await connect(), hookLine('big', 'y'.repeat(1_000_000)));
    expect(reply).toMatchObject({ id: 'big', ok: false, error: { code: 'handler-failed' } });
    expect(reply.error!.message.length).toBeLessThan(1_000);
    expect(reply.error?.message).toMatch(/more characters left out/);
    const longest = Math.max(
      ...fs
        .readFileSync(logFile(), 'utf8')
        .split('\n')
        .map((line) => line.length),
    );
    expect(longest).toBeLessThan(3_000);
  });
});
