import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isKiokuError } from '../../../../common/errors.js';
import { encodeMessage, parseReplyLine, type IpcReply, type SpoolRecord } from '../../../../common/hook-protocol.js';
import { ALL_SECRETS, SECRET_REPLY } from '../../../../test/helpers/secrets.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { silentLogger } from '../../platform/config/log.js';
import { requestHook, requestStatus } from '../../platform/ipc/ipc-client.js';
import { spoolFileName } from '../../platform/ipc/spool-writer.js';
import { readToken } from '../../platform/ipc/token.js';
import { startDaemon, type DaemonHandle } from './daemon.js';

describe('startDaemon (in process)', () => {
  let home: TempHome;
  const daemons: DaemonHandle[] = [];
  const start = (deps: Partial<Parameters<typeof startDaemon>[1]> = {}) => {
    const daemon = startDaemon(home.config(), {
      handleHook: async (call) => ({ stdout: `hi ${call.eventId}` }),
      handleQueued: async () => undefined,
      logger: silentLogger,
      version: '9.9.9',
      ...deps,
    });
    daemons.push(daemon);
    return daemon;
  };
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const daemon of daemons.splice(0)) await daemon.stop();
    home.cleanup();
  });

  it('acknowledges an event it queues, then makes its spool file and folder durable', async () => {
    home = makeTempHome();
    const { spoolDir } = home.config().paths;
    const daemon = start({ handleQueued: null });
    await daemon.ready;
    // Which paths were opened for which descriptors, and which descriptors were fsynced.
    const opened = new Map<number, string>();
    const synced: string[] = [];
    const openSync = fs.openSync.bind(fs);
    const fsyncSync = fs.fsyncSync.bind(fs);
    vi.spyOn(fs, 'openSync').mockImplementation(((file: fs.PathLike, ...rest: unknown[]) => {
      const fd = (openSync as (...args: unknown[]) => number)(file, ...rest);
      opened.set(fd, String(file));
      return fd;
    }) as typeof fs.openSync);
    vi.spyOn(fs, 'fsyncSync').mockImplementation((fd: number) => {
      synced.push(opened.get(fd) ?? `fd ${fd}`);
      fsyncSync(fd);
    });
    const reply = await requestHook(home.config().paths, { id: 'durable', assistant: 'claude', event: 'stop', payload: {} }, 2_000);
    expect(reply).toMatchObject({ ok: true, reply: { ok: true } });
    await new Promise((resolve) => setImmediate(resolve));
    const [file] = fs.readdirSync(spoolDir).filter((name) => name.endsWith('.json'));
    expect(synced).toEqual([path.join(spoolDir, file!), spoolDir]);
  });

  it('answers several requests pipelined on one connection, each by id', async () => {
    home = makeTempHome();
    const daemon = start();
    await daemon.ready;
    const token = readToken(home.config().paths.tokenFile)!;
    const replies = await new Promise<IpcReply[]>((resolve, reject) => {
      const got: IpcReply[] = [];
      let text = '';
      const socket = net.createConnection(daemon.socketPath, () => {
        socket.write(
          ['a', 'b', 'c']
            .map((id) => encodeMessage({ v: 1, id, token, kind: 'hook', assistant: 'claude', event: 'user-prompt-submit', payload: {} }))
            .join('') + encodeMessage({ v: 1, id: 's', token, kind: 'status' }),
        );
      });
      socket.on('error', reject);
      socket.on('data', (chunk) => {
        text += chunk.toString();
        const lines = text.split('\n');
        text = lines.pop()!;
        for (const line of lines) {
          const parsed = parseReplyLine(line);
          if (parsed.ok) got.push(parsed.value);
        }
        if (got.length === 4) {
          socket.destroy();
          resolve(got);
        }
      });
    });
    const byId = Object.fromEntries(replies.map((r) => [r.id, r]));
    expect(byId.a).toMatchObject({ ok: true, stdout: 'hi a' });
    expect(byId.c).toMatchObject({ ok: true, stdout: 'hi c' });
    expect(byId.s).toMatchObject({ status: { version: '9.9.9', ready: true, pid: process.pid } });
  });

  it('turns a failing answer handler into an error reply the hook can fall back on', async () => {
    home = makeTempHome();
    const daemon = start({
      handleHook: async () => {
        throw new Error('roles folder unreadable');
      },
    });
    await daemon.ready;
    const result = await requestHook(home.config().paths, { id: 'x', assistant: 'claude', event: 'session-start', payload: {} }, 2_000);
    expect(result).toMatchObject({ ok: true, reply: { ok: false, exitCode: 0, error: { code: 'handler-failed' } } });
    expect(result.ok && result.reply.error?.message).toMatch(/session-start could not be answered: roles folder unreadable/);
  });

  it('without a capture handler keeps unanswered events in the spool, acknowledged', async () => {
    home = makeTempHome();
    const daemon = start({ handleQueued: null });
    await daemon.ready;
    const result = await requestHook(home.config().paths, { id: 'keep-me', assistant: 'codex', event: 'session-end', payload: {} }, 2_000);
    expect(result).toMatchObject({ ok: true, reply: { ok: true, stdout: '' } });
    const status = await requestStatus(home.config().paths, 2_000);
    expect(status.ok && status.reply.status).toMatchObject({ ready: true, spoolPending: 1 });
  });

  it('spools a live event with its payload redacted (PRIV-1 at rest), and hands the capture handler that record', async () => {
    home = makeTempHome();
    const { spoolDir } = home.config().paths;
    const payload = { session_id: 's1', transcript_path: '/t/s1.jsonl', cwd: '/p', last_assistant_message: SECRET_REPLY };
    const kept = start({ handleQueued: null });
    await kept.ready;
    expect(await requestHook(home.config().paths, { id: 'kept', assistant: 'claude', event: 'stop', payload }, 2_000)).toMatchObject({
      ok: true,
      reply: { ok: true },
    });
    const files = fs.readdirSync(spoolDir).filter((name) => name.endsWith('.json'));
    expect(files).toHaveLength(1);
    const text = fs.readFileSync(`${spoolDir}/${files[0]}`, 'utf8');
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret);
    await kept.stop();

    const handled: SpoolRecord[] = [];
    const capturing = start({ handleQueued: async (record) => void handled.push(record) });
    await capturing.ready;
    expect(handled.map((record) => record.eventId)).toEqual(['kept']);
    expect(handled[0]!.payload).toMatchObject({
      session_id: 's1',
      transcript_path: '/t/s1.jsonl',
      cwd: '/p',
      last_assistant_message: expect.stringContaining('[REDACTED:aws-key]'),
    });
    for (const secret of ALL_SECRETS) expect(JSON.stringify(handled[0])).not.toContain(secret);
  });

  it('still ingests a record an earlier version spooled with its payload in clear, as it was written', async () => {
    home = makeTempHome();
    const { spoolDir } = home.config().paths;
    fs.mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
    const payload = { session_id: 's0', transcript_path: '/t/s0.jsonl', cwd: '/p', last_assistant_message: SECRET_REPLY };
    const old = {
      v: 1,
      eventId: 'old',
      assistant: 'claude',
      event: 'stop',
      payload,
      env: {},
      spooledAt: '2026-03-10T06:00:00.000Z',
      spooledBy: 'hook',
    } as const;
    fs.writeFileSync(`${spoolDir}/${spoolFileName()}`, encodeMessage(old), { mode: 0o600 });
    const handled: SpoolRecord[] = [];
    const daemon = start({ handleQueued: async (record) => void handled.push(record) });
    await daemon.ready;
    expect(handled).toEqual([expect.objectContaining({ eventId: 'old', payload })]);
    expect(fs.readdirSync(spoolDir).filter((name) => name.endsWith('.json'))).toEqual([]);
  });

  it('refuses a second instance on the same memory home, and stop() cleans up once', async () => {
    home = makeTempHome();
    const first = start();
    await first.ready;
    const second = start();
    const failure = await second.ready.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isKiokuError(failure) && failure.code).toBe('LOCKED');
    await second.stop();
    expect(fs.existsSync(first.socketPath)).toBe(true);
    await Promise.all([first.stop(), first.stop()]);
    expect(fs.existsSync(first.socketPath)).toBe(false);
  });
});
