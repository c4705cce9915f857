import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES, PROTOCOL_VERSION, parseReplyLine, type HookReply } from '../../common/hook-protocol.js';
import { ping, requestHook, requestStatus, sendRequest } from '../../main/core/platform/ipc/ipc-client.js';
import { readToken } from '../../main/core/platform/ipc/token.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { endpointOf, killAndWait, runNode, spawnDaemon, waitFor, waitReady, type ChildRun } from './daemon-kit.js';

/**
 * How long a test waits for a reply it expects to get: a safety net for a loaded machine, not a
 * budget (the client's timeout itself is tested with a stopped server).
 */
const REPLY_WAIT_MS = 20_000;

/** Write raw bytes, return the first reply line (the tests here speak the protocol by hand). */
function rawExchange(socketPath: string, data: string | Buffer): Promise<HookReply> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.createConnection(socketPath, () => socket.write(data));
    // Writing past a server that already answered and closed: EPIPE/ECONNRESET are expected.
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      text += chunk.toString();
      const newline = text.indexOf('\n');
      if (newline === -1) return;
      socket.destroy();
      const parsed = parseReplyLine(text.slice(0, newline));
      if (parsed.ok && !('status' in parsed.value)) resolve(parsed.value);
      else reject(new Error(`unexpected reply ${text}`));
    });
    socket.on('close', () => reject(new Error(`closed without a reply line (got ${JSON.stringify(text.slice(0, 200))})`)));
  });
}

describe('the hook socket against a real daemon process', () => {
  let home: TempHome;
  let daemon: ChildRun;

  beforeAll(async () => {
    home = makeTempHome();
    daemon = spawnDaemon(home);
    await waitReady(home, daemon);
  });
  afterAll(async () => {
    await killAndWait(daemon);
    home.cleanup();
  });

  it('answers ping and status, and reports who it is', async () => {
    const endpoint = endpointOf(home);
    const pong = await ping(endpoint, REPLY_WAIT_MS);
    expect(pong).toMatchObject({ ok: true, reply: { ok: true, stdout: '', exitCode: 0 } });
    const status = await requestStatus(endpoint, REPLY_WAIT_MS);
    expect(status.ok && status.reply.status).toMatchObject({
      pid: daemon.pid,
      version: '0.0.0-test',
      ready: true,
      memoryHome: home.memoryHome,
      spoolPending: 0,
    });
  });

  it("answers an answered event with the handler's stdout", async () => {
    const result = await requestHook(
      endpointOf(home),
      { id: 'evt-1', assistant: 'claude', event: 'session-start', payload: { session_id: 's' } },
      REPLY_WAIT_MS,
    );
    expect(result).toMatchObject({ ok: true, reply: { id: 'evt-1', ok: true, stdout: 'answer:session-start:evt-1', exitCode: 0 } });
    // The daemon's own share of the round trip, for KIOKU_TRACE (the hooks bench); a ping has none.
    expect(result.ok && result.reply.handledMs).toBeGreaterThanOrEqual(0);
    const pong = await ping(endpointOf(home), REPLY_WAIT_MS);
    expect(pong.ok && 'handledMs' in pong.reply).toBe(false);
  });

  it('keeps the token, the state dir and the socket private', () => {
    const { paths } = home.config();
    expect(readToken(paths.tokenFile)).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(paths.tokenFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(paths.stateDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(paths.socketPath).mode & 0o777).toBe(0o600);
  });

  it('refuses a wrong token', async () => {
    const result = await sendRequest(
      endpointOf(home).socketPath,
      { v: PROTOCOL_VERSION, id: 'x', token: 'f'.repeat(64), kind: 'status' },
      REPLY_WAIT_MS,
    );
    expect(result).toMatchObject({ ok: false, reason: 'bad-token' });
  });

  it('answers bad JSON, a wrong version and a bad request with errors, and survives', async () => {
    const { socketPath, tokenFile } = endpointOf(home);
    const token = readToken(tokenFile)!;
    expect((await rawExchange(socketPath, 'not json\n')).error?.code).toBe('bad-json');
    expect(await rawExchange(socketPath, '{"v":2,"id":"old","token":"","kind":"ping"}\n')).toMatchObject({
      id: 'old',
      error: { code: 'bad-version' },
    });
    const bad = await rawExchange(
      socketPath,
      `${JSON.stringify({ v: 1, id: 'b', token, kind: 'hook', assistant: 'vim', event: 'stop' })}\n`,
    );
    expect(bad).toMatchObject({ id: 'b', ok: false, exitCode: 0, error: { code: 'bad-request' } });
    expect(bad.error?.message).toMatch(/assistant/);
    expect((await ping(endpointOf(home), REPLY_WAIT_MS)).ok).toBe(true);
  });

  it('answers an oversized line with too-large, closes only that connection, and survives', async () => {
    const reply = await rawExchange(endpointOf(home).socketPath, Buffer.alloc(MAX_LINE_BYTES + 16, 0x61));
    expect(reply).toMatchObject({ id: '', ok: false, error: { code: 'too-large' } });
    const status = await requestStatus(endpointOf(home), REPLY_WAIT_MS);
    expect(status.ok && status.reply.status.pid).toBe(daemon.pid);
  });
});

describe('socket life cycle', () => {
  const homes: TempHome[] = [];
  const runs: ChildRun[] = [];
  const newHome = () => {
    const home = makeTempHome();
    homes.push(home);
    return home;
  };
  const start = (home: TempHome, env: NodeJS.ProcessEnv = {}) => {
    const run = spawnDaemon(home, env);
    runs.push(run);
    return run;
  };
  afterEach(async () => {
    for (const run of runs.splice(0)) {
      if (run.isRunning()) run.child.kill('SIGCONT');
      await killAndWait(run);
    }
    for (const home of homes.splice(0)) home.cleanup();
  });

  it('reports no-socket when nothing ever ran, and refused for a file nobody listens on', async () => {
    const home = newHome();
    expect(await ping(endpointOf(home), 1_000)).toMatchObject({ ok: false, reason: 'no-socket' });
    const { socketPath } = endpointOf(home);
    const result = await sendRequest(socketPath, { v: 1, id: 'p', token: '', kind: 'ping' }, 1_000);
    expect(result).toMatchObject({ ok: false, reason: 'no-socket' });
    fs.writeFileSync(socketPath, 'left over');
    expect(await sendRequest(socketPath, { v: 1, id: 'p', token: '', kind: 'ping' }, 1_000)).toMatchObject({
      ok: false,
      reason: 'refused',
    });
  });

  it('replaces a stale socket file: a leftover file, then the socket of a killed daemon', async () => {
    const home = newHome();
    const { socketPath } = endpointOf(home);
    fs.writeFileSync(socketPath, 'left over');
    const first = start(home);
    await waitReady(home, first);
    await killAndWait(first, 'SIGKILL');
    expect(fs.existsSync(socketPath)).toBe(true); // SIGKILL leaves the file behind
    const second = start(home);
    await waitReady(home, second);
    expect((await ping(endpointOf(home), REPLY_WAIT_MS)).ok).toBe(true);
  });

  it('refuses to start while another daemon serves the same memory home', async () => {
    const home = newHome();
    const first = start(home);
    await waitReady(home, first);
    const second = start(home);
    const { code } = await second.exited;
    expect(code).toBe(1);
    expect(second.output().stderr).toMatch(/another Kioku already serves this memory home/);
    const status = await requestStatus(endpointOf(home), REPLY_WAIT_MS);
    expect(status.ok && status.reply.status.pid).toBe(first.pid);
  });

  it('stops cleanly on SIGTERM: exit 0, socket and pid file removed', async () => {
    const home = newHome();
    const { paths } = home.config();
    const run = start(home);
    await waitReady(home, run);
    expect(fs.readFileSync(path.join(paths.stateDir, 'daemon.pid'), 'utf8').trim()).toBe(String(run.pid));
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(paths.socketPath)).toBe(false);
    expect(fs.existsSync(path.join(paths.stateDir, 'daemon.pid'))).toBe(false);
  });

  it('times out on a server that accepts but never answers (SIGSTOP), and works again after SIGCONT', async () => {
    const home = newHome();
    const run = start(home);
    await waitReady(home, run);
    run.child.kill('SIGSTOP');
    try {
      // The client's own timer ended the wait, while the server was still stopped: it cannot
      // have answered. (A client that waited for the reply would hang here until the test's timeout.)
      expect(await ping(endpointOf(home), 300)).toMatchObject({ ok: false, reason: 'timeout' });
    } finally {
      run.child.kill('SIGCONT');
    }
    expect((await ping(endpointOf(home), REPLY_WAIT_MS)).ok).toBe(true);
  });

  it('reports closed when the server dies in the middle of its reply', async () => {
    const home = newHome();
    const { socketPath } = endpointOf(home);
    const server = runNode('test/ipc/fixtures/half-reply-server.ts', [socketPath], home.env);
    runs.push(server);
    await waitFor(() => server.output().stdout.includes('listening'), 'the half-reply server to listen');
    const result = await sendRequest(socketPath, { v: 1, id: 'half', token: '', kind: 'ping' }, REPLY_WAIT_MS);
    expect(result).toMatchObject({ ok: false, reason: 'closed' });
    expect(!result.ok && result.detail).toMatch(/after 13 bytes of a reply/);
  });
});
