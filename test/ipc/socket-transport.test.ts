import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../common/hook-wire.js';
import type { LineConnector } from '../../main/core/platform/ipc/line-connection.js';
import { connectWithNet } from '../../main/core/platform/ipc/net-connection.js';
import { rawPipeConnector } from '../../main/core/platform/ipc/raw-pipe-connection.js';
import { defaultConnector, sendLine } from '../../main/core/platform/ipc/socket-request.js';
import { runNode } from './daemon-kit.js';

/**
 * The two transports under socket-request.ts (line-connection.ts): the same requests against the
 * same servers must give the same results, byte for byte and failure for failure. The raw pipe
 * handle is what every hook uses on this platform, so it is the one that must not differ.
 */
const raw = rawPipeConnector();
const transports: Array<[string, LineConnector | undefined]> = [
  ['the raw pipe handle', raw],
  ['node:net', connectWithNet],
];

/** A reply's checker as the clients pass one: the parsed line, or what is wrong with it. */
const parse = (line: string) => {
  try {
    return JSON.parse(line) as { id: string; ok: boolean; text?: string };
  } catch {
    return 'not JSON';
  }
};

const dirs: string[] = [];
const servers: net.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function socketDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-transport-'));
  fs.chmodSync(dir, 0o700);
  dirs.push(dir);
  return dir;
}

/** A server on a fresh private socket; `onLine` gets each connection's first request line. */
async function serve(onLine: (socket: net.Socket, line: string) => void): Promise<string> {
  const socketPath = path.join(socketDir(), 's.sock');
  const server = net.createServer((socket) => {
    let text = '';
    socket.setEncoding('utf8'); // a character split between chunks is decoded whole
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      text += chunk;
      const newline = text.indexOf('\n');
      if (newline !== -1 && text.length > 0) {
        const line = text.slice(0, newline);
        text = '\0'; // answered: later bytes are not a new request
        onLine(socket, line);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return socketPath;
}

it('uses the raw pipe handle on this platform (Linux, a checked Node line), so the hooks bench measures it', () => {
  expect(process.platform).toBe('linux');
  expect(raw).toBeDefined();
  expect(defaultConnector()).not.toBe(connectWithNet);
});

describe.each(transports)('a request over %s', (_name, connector) => {
  const connect = connector!;

  it('gets a reply sent in pieces, with a character split between them', async () => {
    const socketPath = await serve((socket, line) => {
      const reply = Buffer.from(`${JSON.stringify({ id: JSON.parse(line).id, ok: true, text: '記憶は、續く' })}\n`);
      const cut = reply.indexOf(Buffer.from('憶')) + 1; // inside the character's three bytes
      socket.write(reply.subarray(0, cut));
      setTimeout(() => socket.write(reply.subarray(cut, cut + 5)), 20);
      setTimeout(() => socket.write(reply.subarray(cut + 5)), 40);
    });
    const result = await sendLine(socketPath, 'r1', '{"id":"r1"}\n', 20_000, parse, connect);
    expect(result).toEqual({ ok: true, reply: { id: 'r1', ok: true, text: '記憶は、續く' } });
  });

  it('sends a request far larger than the socket buffer whole', async () => {
    const prompt = '長'.repeat(700_000); // 2.1 MB of UTF-8: the write cannot finish at once
    const socketPath = await serve((socket, line) => {
      const request = JSON.parse(line) as { id: string; prompt: string };
      socket.write(`${JSON.stringify({ id: request.id, ok: request.prompt === prompt })}\n`);
    });
    const result = await sendLine(socketPath, 'big', `${JSON.stringify({ id: 'big', prompt })}\n`, 20_000, parse, connect);
    expect(result).toEqual({ ok: true, reply: { id: 'big', ok: true } });
  });

  it('reports closed, with the bytes it had, when the server goes mid-reply', async () => {
    const socketPath = await serve((socket) => socket.end('{"id":"r'));
    const result = await sendLine(socketPath, 'r', '{"id":"r"}\n', 20_000, parse, connect);
    expect(result).toMatchObject({ ok: false, reason: 'closed' });
    expect(!result.ok && result.detail).toMatch(/after 8 bytes of a reply/);
  });

  it('times out on a server that never answers, and closes its side', async () => {
    let closed!: () => void;
    const clientGone = new Promise<void>((resolve) => (closed = resolve));
    const socketPath = await serve((socket) => socket.on('close', closed));
    const result = await sendLine(socketPath, 't', '{"id":"t"}\n', 200, parse, connect);
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    await clientGone; // the client closed the connection: the test would time out otherwise
  });

  it('refuses a reply line over the protocol limit', async () => {
    const socketPath = await serve((socket) => socket.write(Buffer.alloc(MAX_LINE_BYTES + 1, 0x61)));
    const result = await sendLine(socketPath, 'o', '{"id":"o"}\n', 20_000, parse, connect);
    expect(result).toMatchObject({ ok: false, reason: 'bad-reply' });
    expect(!result.ok && result.detail).toMatch(/over \d+ bytes/);
  });

  it('says refused for a file nobody listens on, and names the system error', async () => {
    const socketPath = path.join(socketDir(), 'left-over.sock');
    fs.writeFileSync(socketPath, 'not a socket');
    const result = await sendLine(socketPath, 'x', '{"id":"x"}\n', 20_000, parse, connect);
    expect(result).toEqual({ ok: false, reason: 'refused', detail: `${socketPath}: ECONNREFUSED` });
  });

  it('reports a socket that vanished between the check and the connect as no-socket', async () => {
    const socketPath = path.join(socketDir(), 'gone.sock');
    const events: string[] = [];
    await new Promise<void>((resolve) => {
      connect(socketPath, {
        connect: () => events.push('connect'),
        data: () => events.push('data'),
        error: (code) => events.push(`error ${code}`),
        close: () => resolve(),
      });
    });
    expect(events).toEqual(['error ENOENT']);
  });
});

describe('a process Node was asked to warn about process.binding', () => {
  it.each([
    ['NODE_OPTIONS', { NODE_OPTIONS: '--pending-deprecation' }],
    ['NODE_PENDING_DEPRECATION', { NODE_PENDING_DEPRECATION: '1' }],
  ])('uses node:net under %s, and prints no warning', async (_name, extraEnv) => {
    const socketPath = await serve((socket, line) => socket.write(`${JSON.stringify({ id: JSON.parse(line).id, ok: true })}\n`));
    const probe = runNode('test/ipc/fixtures/raw-pipe-probe.ts', [socketPath], { ...process.env, ...extraEnv }, { deadlineMs: 60_000 });
    const { code } = await probe.exited;
    expect(code).toBe(0);
    expect(JSON.parse(probe.output().stdout)).toEqual({ raw: false, result: { ok: true, reply: { id: 'probe', ok: true } } });
    expect(probe.output().stderr).toBe('');
  });

  it('and the raw handle otherwise, with nothing on stderr either', async () => {
    const socketPath = await serve((socket, line) => socket.write(`${JSON.stringify({ id: JSON.parse(line).id, ok: true })}\n`));
    const probe = runNode('test/ipc/fixtures/raw-pipe-probe.ts', [socketPath], process.env, { deadlineMs: 60_000 });
    await probe.exited;
    expect(JSON.parse(probe.output().stdout)).toEqual({ raw: true, result: { ok: true, reply: { id: 'probe', ok: true } } });
    expect(probe.output().stderr).toBe('');
  });
});
