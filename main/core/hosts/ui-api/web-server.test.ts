import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { AppState, UiEventMessage, UiResult } from '../../../../common/ui-contract.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { fixedClock } from '../../platform/config/clock.js';
import { loadConfig } from '../../platform/config/config.js';
import { createLogger } from '../../platform/config/log.js';
import { startWebServer, type WebServer } from './web-server.js';

let home: TempHome;
let server: WebServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  home?.cleanup();
});

const TOKEN = 'test-token-0123456789';
const NOW = '2026-03-04T10:00:00+08:00';

/** The sleep window is set so the answer does not depend on the machine's time zone. */
async function start(window = { ROLE_SLEEP_START: '00:00', ROLE_SLEEP_END: '00:00' }): Promise<WebServer> {
  home = makeTempHome(window);
  const ui = path.join(home.root, 'ui');
  fs.mkdirSync(path.join(ui, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(ui, 'index.html'), '<!doctype html><title>Kioku</title>');
  fs.writeFileSync(path.join(ui, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(home.root, 'secret.txt'), 'SECRET');
  fs.symlinkSync(path.join(home.root, 'secret.txt'), path.join(ui, 'link.txt'));
  const config = loadConfig(home.env, { clock: fixedClock(NOW) });
  const logger = createLogger({ clock: config.clock });
  const status = () => ({ pid: 42, startedAt: NOW, version: 'test', memoryHome: config.paths.memoryHome, spoolPending: 0 });
  server = await startWebServer(config, { logger, status, token: TOKEN, rendererDir: ui, watchIntervalMs: 50 });
  return server;
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request: fetch would normalise the path and refuses to set Host. */
function request(
  method: string,
  rawPath: string,
  options: { host?: string; token?: string; body?: unknown; contentType?: string } = {},
): Promise<Reply> {
  const port = server!.port;
  const headers: Record<string, string> = { Host: options.host ?? `127.0.0.1:${port}` };
  if (options.token !== undefined) headers['x-kioku-token'] = options.token;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (payload !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: rawPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function call<T = unknown>(channel: string, body: unknown): Promise<UiResult<T>> {
  const reply = await request('POST', `/api/${channel}`, { token: TOKEN, body });
  return JSON.parse(reply.body) as UiResult<T>;
}

async function value<T>(channel: string, body: unknown): Promise<T> {
  const result = await call<T>(channel, body);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

const NEW_ROLE = { name: '小豹', nature: '冷靜可靠的工程師', vibe: '簡潔直白', emoji: '🐆', prefix: 'ENGINEER' };

describe('the guards', () => {
  it('refuses API calls without the right token (401) and names what to do', async () => {
    await start();
    for (const token of [undefined, 'wrong', `${TOKEN}x`]) {
      const reply = await request('GET', '/api/state', { token });
      expect(reply.status).toBe(401);
      expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
    }
  });

  it('refuses a foreign Host header (DNS rebinding) even with the token', async () => {
    const { port } = await start();
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `0.0.0.0:${port}`]) {
      expect((await request('GET', '/api/state', { host, token: TOKEN })).status).toBe(403);
      expect((await request('GET', '/', { host })).status).toBe(403);
    }
    expect((await request('GET', '/api/state', { host: `localhost:${port}`, token: TOKEN })).status).toBe(200);
  });

  it('never serves a file outside the UI folder', async () => {
    await start();
    for (const raw of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e%5csecret.txt',
      '/link.txt',
      '/assets%00/app.js',
    ]) {
      const reply = await request('GET', raw);
      expect([400, 404], raw).toContain(reply.status);
      expect(reply.body, raw).not.toContain('SECRET');
    }
    expect((await request('GET', '/assets/app.js')).body).toBe('console.log(1)');
  });

  it('sends a strict CSP with the page', async () => {
    await start();
    const reply = await request('GET', '/');
    expect(reply.status).toBe(200);
    const csp = String(reply.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
  });

  it('accepts API bodies only as JSON', async () => {
    await start();
    expect((await request('POST', '/api/roles.list', { token: TOKEN, body: {}, contentType: 'text/plain' })).status).toBe(415);
    expect((await request('GET', '/api/roles.list', { token: TOKEN })).status).toBe(405);
  });
});

describe('the API', () => {
  it('answers GET /api/state with {ok:true,…} in the shape of `status --json` (DSH-8)', async () => {
    await start();
    await value('roles.create', { input: NEW_ROLE });
    const reply = await request('GET', '/api/state', { token: TOKEN });
    expect(reply.status).toBe(200);
    const state = JSON.parse(reply.body) as UiResult<AppState>;
    expect(state).toMatchObject({
      ok: true,
      value: { activeRole: 'ENGINEER01', state: 'awake', sleeping: false, daemon: { running: true, pid: 42 }, sleep: { source: 'window' } },
    });
    if (state.ok)
      expect(state.value.roles).toEqual([
        expect.objectContaining({ id: 'ENGINEER01', name: '小豹', emoji: '🐆', active: true, memoryCount: 0 }),
      ]);
  });

  it('shows the sleep window as the sleep state when no scheduler runs', async () => {
    await start({ ROLE_SLEEP_START: '00:00', ROLE_SLEEP_END: '23:59' });
    const state = await value<AppState>('state.get', {});
    // Every minute of the day but 23:59 is inside 00:00–23:59, whatever the machine's time zone.
    expect(state).toMatchObject({
      state: 'asleep',
      sleeping: true,
      sleep: { source: 'window', window: { start: '00:00', end: '23:59' }, schedule: null },
    });
  });

  it('refuses unknown channels and invalid requests with a code and a message', async () => {
    await start();
    const unknown = await request('POST', '/api/roles.destroyEverything', { token: TOKEN, body: {} });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    const bad = await call('roles.get', { id: '../etc' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', message: expect.stringContaining('id') } });
    const extra = await call('roles.list', { sneaky: true });
    expect(extra).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('edits a role only through the ROLE-5 table and its token', async () => {
    await start();
    await value('roles.create', { input: NEW_ROLE });
    const identity = path.join(home.roleHome, 'ENGINEER01.identity.md');
    const before = fs.readFileSync(identity, 'utf8');
    const input = { id: 'ENGINEER01', name: '小豹二代', nature: '冷靜可靠的工程師', vibe: '簡潔直白', emoji: '🐆', aliases: ['豹豹'] };
    const plan = await value<{ token: string; changed: boolean; changes: { field: string; old: string; new: string; changed: boolean }[] }>(
      'roles.planChange',
      { input },
    );
    expect(plan.changed).toBe(true);
    expect(plan.changes.find((change) => change.field === 'name')).toEqual({ field: 'name', old: '小豹', new: '小豹二代', changed: true });
    expect(plan.changes.find((change) => change.field === 'vibe')?.changed).toBe(false);
    expect(fs.readFileSync(identity, 'utf8')).toBe(before); // planning writes nothing

    const wrong = await call('roles.applyChange', { input: { ...input, name: '別的名字' }, token: plan.token });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'CONFIRM_NEEDED' } });
    expect(fs.readFileSync(identity, 'utf8')).toBe(before);

    const applied = await value<{ changed: string[]; role: { name: string; aliases: string[] } }>('roles.applyChange', {
      input,
      token: plan.token,
    });
    expect(applied.changed).toEqual(['name', 'aliases']);
    expect(applied.role).toMatchObject({ name: '小豹二代', aliases: ['豹豹'] });
    expect(fs.readFileSync(identity, 'utf8')).toContain('小豹二代');
  });

  it('refuses to create over an existing role', async () => {
    await start();
    await value('roles.create', { input: NEW_ROLE });
    const again = await call('roles.create', { input: { ...NEW_ROLE, prefix: undefined, id: 'ENGINEER01' } });
    expect(again).toMatchObject({ ok: false, error: { code: 'ALREADY_EXISTS' } });
  });

  it('archives a role that is not active, refuses the active one, and switches the active role', async () => {
    await start();
    await value('roles.create', { input: NEW_ROLE });
    await value('roles.create', { input: { ...NEW_ROLE, name: '小貓', emoji: '🐱', prefix: 'WRITER' } });
    expect(await call('roles.archive', { id: 'ENGINEER01' })).toMatchObject({
      ok: false,
      error: { code: 'REFUSED', hint: expect.any(String) },
    });
    expect(await value('roles.setActive', { id: 'WRITER01' })).toEqual({ activeRole: 'WRITER01', overriddenBy: null });
    expect(fs.readFileSync(path.join(home.roleHome, '.active'), 'utf8')).toBe('WRITER01\n');
    await value('roles.archive', { id: 'ENGINEER01' });
    expect(fs.existsSync(path.join(home.roleHome, 'ENGINEER01.identity.md'))).toBe(false);
    const list = await value<{ roles: { id: string }[] }>('roles.list', {});
    expect(list.roles.map((role) => role.id)).toEqual(['WRITER01']);
  });

  it('keeps the order the user gave, new roles after it', async () => {
    await start();
    await value('roles.create', { input: NEW_ROLE });
    await value('roles.create', { input: { ...NEW_ROLE, name: '小貓', prefix: 'WRITER' } });
    await value('roles.reorder', { order: ['WRITER01', 'ENGINEER01'] });
    await value('roles.create', { input: { ...NEW_ROLE, name: '小鳥', prefix: 'ARTIST' } });
    const list = await value<{ roles: { id: string }[] }>('roles.list', {});
    expect(list.roles.map((role) => role.id)).toEqual(['WRITER01', 'ENGINEER01', 'ARTIST01']);
    expect(fs.readFileSync(path.join(home.roleHome, '.order'), 'utf8')).toBe('WRITER01\nENGINEER01\n');
  });
});

describe('the event socket', () => {
  function connect(query: string, origin?: string): Promise<{ socket: WebSocket; messages: UiEventMessage[] } | { refused: number }> {
    return new Promise((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${server!.port}/api/events${query}`, origin ? { origin } : {});
      const messages: UiEventMessage[] = [];
      socket.on('message', (data) => messages.push(JSON.parse(String(data)) as UiEventMessage));
      socket.on('open', () => resolve({ socket, messages }));
      socket.on('unexpected-response', (_req, res) => resolve({ refused: res.statusCode ?? 0 }));
      socket.on('error', () => undefined);
    });
  }

  // A safety net, not a budget: on a loaded machine a broadcast may take a while; 30 s means "never".
  async function until(check: () => boolean): Promise<void> {
    for (let i = 0; i < 1200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(check()).toBe(true);
  }

  it('refuses a wrong token and a foreign origin', async () => {
    await start();
    expect(await connect('?token=nope')).toEqual({ refused: 401 });
    expect(await connect(`?token=${TOKEN}`, 'http://evil.example')).toEqual({ refused: 403 });
  });

  it('sends the state on connect, then every change, including ones made outside the app', async () => {
    await start();
    const opened = await connect(`?token=${TOKEN}`, `http://127.0.0.1:${server!.port}`);
    if (!('socket' in opened)) throw new Error(`refused: ${opened.refused}`);
    const { socket, messages } = opened;
    const states = () => messages.filter((m): m is UiEventMessage<'state.changed'> => m.event === 'state.changed').map((m) => m.data);
    await until(() => states().length === 1);
    expect(states()[0]!.roles).toEqual([]);

    await value('roles.create', { input: NEW_ROLE });
    await until(() => states().some((state) => state.roles.some((role) => role.id === 'ENGINEER01')));

    // A memory written by someone else (a hook, an editor) is noticed by the watch.
    const file = path.join(home.memoryHome, 'ENGINEER01', 'inbox', '20260304-100000-aaaa.md');
    fs.writeFileSync(file, '---\nid: 20260304-100000-aaaa\n---\n記得喝水\n');
    await until(() => messages.some((m) => m.event === 'memories.changed' && (m.data as { roles: string[] }).roles.includes('ENGINEER01')));
    await until(() => states().some((state) => state.roles[0]?.memoryCount === 1));
    socket.close();
  });
});
