import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { STDIN_TIMEOUT_MS } from '../../hooks/hook-budgets.js';
import { guardChild } from '../helpers/child-guard.js';
import { claudePayload, hookBundle, makeHookHome, ACTIVE, type HookHome } from './hook-kit.js';

/**
 * How the hook client gets its stdin (hooks/hook-stdin.ts reads fd 0 itself instead of through
 * process.stdin): from a socket pair as Node-based assistants give it, from a file, and from an
 * assistant that never closes it — which must not hang the hook (HOOK-2).
 *
 * Nothing here depends on how fast the machine is. Where a hook must have stopped reading because
 * the payload was whole (not because its wait ran out), its wait is made endless
 * (stdin-wait-never-ends.mjs); where it must give up on its own, the test never closes stdin and
 * checks the order of what happened, never how long it took.
 */
let home: HookHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** `node --import` args that make the hook's stdin wait endless, and the env the preload reads. */
const ENDLESS_STDIN_WAIT = {
  nodeArgs: ['--import', pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'stdin-wait-never-ends.mjs')).href],
  env: { KIOKU_TEST_ENDLESS_TIMER_MS: String(STDIN_TIMEOUT_MS) },
};

interface SpawnOptions {
  endlessStdinWait?: boolean;
  /** Called with the child once it is started (the test may watch it). */
  started?: (child: ChildProcess) => void;
}

/** The hook with fd 0 = `stdin`; with a pipe, `feed` writes to it as the test's writer would. */
function spawnHook(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin: 'pipe' | number,
  feed?: (input: Writable) => void,
  options: SpawnOptions = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const nodeArgs = options.endlessStdinWait ? ENDLESS_STDIN_WAIT.nodeArgs : [];
    const childEnv = options.endlessStdinWait ? { ...env, ...ENDLESS_STDIN_WAIT.env } : env;
    // Killed at its deadline (a safety net, well inside the test's own timeout: a hook that hangs
    // fails on `signal`), and at the end of the test.
    const child = guardChild(
      spawn(process.execPath, [...nodeArgs, hookBundle(), ...args], { env: childEnv, stdio: [stdin, 'pipe', 'pipe'] }),
      30_000,
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    if (child.stdin) {
      child.stdin.on('error', () => undefined);
      feed?.(child.stdin);
    }
    options.started?.(child);
  });
}

function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin: 'pipe' | number,
  write?: string,
  close = true,
  options: SpawnOptions = {},
): Promise<Run> {
  return spawnHook(
    args,
    env,
    stdin,
    (input) => {
      if (write !== undefined) input.write(write);
      if (close) input.end();
    },
    options,
  );
}

/** The hook's own log line for a finished run: `<assistant> <event>: <n> chars in <ms> ms`. */
function finishedLine(h: HookHome, event: string): { chars: number; ms: number } | undefined {
  const log = path.join(h.config().paths.logsDir, 'hooks.log');
  const match = fs.existsSync(log) ? new RegExp(`claude ${event}: (\\d+) chars in (\\d+) ms`).exec(fs.readFileSync(log, 'utf8')) : null;
  return match ? { chars: Number(match[1]), ms: Number(match[2]) } : undefined;
}

describe('the hook reads its stdin', () => {
  it('from a pipe, as an assistant gives it', async () => {
    const h = (home = await makeHookHome());
    h.transcript('sess-stdin');
    const result = await run(
      ['session-start', '--assistant', 'claude'],
      h.env,
      'pipe',
      JSON.stringify(claudePayload(h, 'session-start', 'sess-stdin', { source: 'startup' })),
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(ACTIVE.name);
  });

  it('from a file', async () => {
    const h = (home = await makeHookHome());
    h.transcript('sess-file');
    const file = path.join(h.root, 'payload.json');
    fs.writeFileSync(file, JSON.stringify(claudePayload(h, 'session-start', 'sess-file', { source: 'startup' })));
    const fd = fs.openSync(file, 'r');
    try {
      const result = await run(['session-start', '--assistant', 'claude'], h.env, fd);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain(ACTIVE.name);
    } finally {
      fs.closeSync(fd);
    }
  });

  it('from an assistant that never closes it: gives up after its wait, exits 0, says nothing', async () => {
    const h = (home = await makeHookHome());
    // stdin is never closed: a hook that waited for its end would be killed at its deadline.
    const result = await run(['user-prompt-submit', '--assistant', 'claude'], h.env, 'pipe', '{"prompt": "還沒寫完', false);
    expect(result).toMatchObject({ code: 0, signal: null, stdout: '' });
    // It gave up on its own wait, not at once: a lower bound, which a slow machine only makes longer.
    expect(finishedLine(h, 'user-prompt-submit')?.ms).toBeGreaterThanOrEqual(STDIN_TIMEOUT_MS - 5);
  });

  it('larger than one read, and from a slow writer: the rest is read until the object is whole', async () => {
    const h = (home = await makeHookHome());
    h.transcript('sess-big');
    // Over the first 64 KB read: a pasted log in a field the hook does not use.
    const big = JSON.stringify(claudePayload(h, 'session-start', 'sess-big', { source: 'startup', pasted: '記'.repeat(100_000) }));
    const whole = await run(['session-start', '--assistant', 'claude'], h.env, 'pipe', big, true, { endlessStdinWait: true });
    expect(whole).toMatchObject({ code: 0, stderr: '' });
    expect(whole.stdout).toContain(ACTIVE.name);

    const payload = JSON.stringify(claudePayload(h, 'session-start', 'sess-big', { source: 'startup' }));
    // The rest comes once the hook is running, and stdin is never closed: with its wait made
    // endless, the hook can only have answered because the object became whole.
    const slow = await spawnHook(['session-start', '--assistant', 'claude'], h.env, 'pipe', (input) => input.write(payload.slice(0, 40)), {
      endlessStdinWait: true,
      started: (child) => child.once('spawn', () => setImmediate(() => child.stdin!.write(payload.slice(40)))),
    });
    expect(slow).toMatchObject({ code: 0, stderr: '' });
    expect(slow.stdout).toContain(ACTIVE.name);
  });

  it('from a descriptor left non-blocking and never closed: the whole object is enough', async () => {
    const h = (home = await makeHookHome());
    h.transcript('sess-fifo');
    const fifo = path.join(h.root, 'stdin.fifo');
    execFileSync('mkfifo', [fifo]);
    // Read and write ends in one descriptor, non-blocking: the hook's first read finds nothing
    // (EAGAIN), and stdin never ends, since the hook itself holds a writer.
    const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    try {
      // Its wait made endless: the hook can only answer because the object it read is whole.
      let hook: ChildProcess | undefined;
      const pending = run(['session-start', '--assistant', 'claude'], h.env, fd, undefined, true, {
        endlessStdinWait: true,
        started: (child) => (hook = child),
      });
      await new Promise<void>((resolve) => hook!.once('spawn', () => resolve()));
      fs.writeSync(fd, JSON.stringify(claudePayload(h, 'session-start', 'sess-fifo', { source: 'startup' })));
      const result = await pending;
      expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
      expect(result.stdout).toContain(ACTIVE.name);
    } finally {
      fs.closeSync(fd);
    }
  });

  it('from a writer that keeps stdin open and writes nothing: waits in its first read, and ends with stdin', async () => {
    const h = (home = await makeHookHome());
    let hook: ChildProcess | undefined;
    let input: Writable | undefined;
    const pending = spawnHook(['stop', '--assistant', 'claude'], h.env, 'pipe', (stdin) => (input = stdin), {
      started: (child) => (hook = child),
    });
    await new Promise<void>((resolve) => hook!.once('spawn', () => resolve()));
    // Well past its wait for the rest of a payload, it has done nothing: its first read blocks
    // until something arrives (hooks/hook-stdin.ts), as the pool's read did before. (A lower
    // bound: a slow machine can only make the hook look more idle, never fail this.)
    await new Promise((resolve) => setTimeout(resolve, STDIN_TIMEOUT_MS + 500));
    expect(finishedLine(h, 'stop')).toBeUndefined();
    expect(hook!.exitCode).toBeNull();
    input!.end();
    expect(await pending).toMatchObject({ code: 0, signal: null, stdout: '', stderr: '' });
    expect(finishedLine(h, 'stop')?.chars).toBe(0);
  });

  it('with stdout closed before the answer (EPIPE): exits 0, no stack trace', async () => {
    const h = (home = await makeHookHome());
    h.transcript('sess-epipe');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = guardChild(
        spawn(process.execPath, [hookBundle(), 'session-start', '--assistant', 'claude'], { env: h.env, stdio: ['pipe', 'pipe', 'pipe'] }),
      );
      // The reader goes away before the hook writes its answer.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
      child.stdin.end(JSON.stringify(claudePayload(h, 'session-start', 'sess-epipe', { source: 'startup' })));
    });
    expect(result).toEqual({ code: 0, stderr: '' });
  });

  it('with stdout a full non-blocking pipe (EAGAIN): the rest of the answer still arrives, whole', async () => {
    const h = (home = await makeHookHome());
    h.transcript('sess-eagain');
    const payload = JSON.stringify(claudePayload(h, 'session-start', 'sess-eagain', { source: 'startup' }));
    // The hook writes its answer straight to fd 1 (kioku-hook.ts `say`); this preload makes the
    // pipe look full after 100 bytes, as a reader that set it non-blocking and fell behind would.
    const preload = path.join(h.root, 'full-pipe.cjs');
    fs.writeFileSync(
      preload,
      `const fs = require('node:fs'); const real = fs.writeSync; let calls = 0;
fs.writeSync = function (fd, data, offset, ...rest) {
  if (fd !== 1) return real.call(this, fd, data, offset, ...rest);
  const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data; // the answer is written as a string first
  if (typeof data === 'string') offset = 0;
  if (++calls > 1) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN' });
  return real.call(this, fd, buffer, offset ?? 0, Math.min(100, buffer.length - (offset ?? 0)));
};\n`,
    );
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = guardChild(
          spawn(process.execPath, [...args, hookBundle(), 'session-start', '--assistant', 'claude'], { env: h.env }),
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(payload);
      });
    const full = await run(['--require', preload]);
    expect(full.code).toBe(0);
    expect(full.stderr).toBe('');
    expect(Buffer.byteLength(full.stdout)).toBeGreaterThan(100);
    fs.rmSync(path.join(h.env.ROLE_HOME!, '.sessions'), { recursive: true, force: true });
    fs.rmSync(path.join(h.env.ROLE_HOME!, '.locks'), { recursive: true, force: true });
    const plain = await run([]);
    expect(full.stdout).toBe(plain.stdout);
  });
});
