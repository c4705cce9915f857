import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { STDIN_TIMEOUT_MS } from '../../hooks/hook-budgets.js';
import { SLACK_MS } from './fail-open-kit.js';
import { claudePayload, hookBundle, makeHookHome, ACTIVE, type HookHome } from './hook-kit.js';

/**
 * How the hook client gets its stdin (hooks/hook-stdin.ts reads fd 0 itself instead of through
 * process.stdin): from a socket pair as Node-based assistants give it, from a file, and from an
 * assistant that never closes it — which must not hang the hook (HOOK-2).
 */
let home: HookHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

type Run = { code: number | null; stdout: string; stderr: string; ms: number };

/** The hook with fd 0 = `stdin`; with a pipe, `feed` writes to it as the test's writer would. */
function spawnHook(args: string[], env: NodeJS.ProcessEnv, stdin: 'pipe' | number, feed?: (input: Writable) => void): Promise<Run> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [hookBundle(), ...args], { env, stdio: [stdin, 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
    if (child.stdin) {
      child.stdin.on('error', () => undefined);
      feed?.(child.stdin);
    }
  });
}

function run(args: string[], env: NodeJS.ProcessEnv, stdin: 'pipe' | number, write?: string, close = true): Promise<Run> {
  return spawnHook(args, env, stdin, (input) => {
    if (write !== undefined) input.write(write);
    if (close) input.end();
  });
}

/** A writer that sends `parts` `gapMs` apart, then closes stdin `gapMs` after the last one. */
function runSlowWriter(args: string[], env: NodeJS.ProcessEnv, parts: string[], gapMs: number): Promise<Run> {
  return spawnHook(args, env, 'pipe', (input) => {
    const [head, ...rest] = parts;
    if (head !== undefined) input.write(head);
    const timer = setInterval(() => {
      const next = rest.shift();
      if (next !== undefined) return void input.write(next);
      clearInterval(timer);
      input.end();
    }, gapMs);
  });
}

describe('the hook reads its stdin', () => {
  it('from a pipe, as an assistant gives it', async () => {
    const h = (home = await makeHookHome());
    h.transcript('sess-stdin');
    const result = await run(['session-start', '--assistant', 'claude'], h.env, 'pipe', JSON.stringify(claudePayload(h, 'session-start', 'sess-stdin', { source: 'startup' })));
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
    const result = await run(['user-prompt-submit', '--assistant', 'claude'], h.env, 'pipe', '{"prompt": "還沒寫完', false);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.ms).toBeGreaterThanOrEqual(STDIN_TIMEOUT_MS - 50);
    expect(result.ms).toBeLessThanOrEqual(STDIN_TIMEOUT_MS + SLACK_MS);
  });

  it('larger than one read, and from a slow writer: the rest is read until the object is whole', async () => {
    const h = (home = await makeHookHome());
    h.transcript('sess-big');
    // Over the first 64 KB read: a pasted log in a field the hook does not use.
    const big = JSON.stringify(claudePayload(h, 'session-start', 'sess-big', { source: 'startup', pasted: '記'.repeat(100_000) }));
    const whole = await run(['session-start', '--assistant', 'claude'], h.env, 'pipe', big);
    expect(whole).toMatchObject({ code: 0, stderr: '' });
    expect(whole.stdout).toContain(ACTIVE.name);

    const payload = JSON.stringify(claudePayload(h, 'session-start', 'sess-big', { source: 'startup' }));
    const slow = await runSlowWriter(['session-start', '--assistant', 'claude'], h.env, [payload.slice(0, 40), payload.slice(40)], 300);
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
      const pending = run(['session-start', '--assistant', 'claude'], h.env, fd);
      await new Promise((resolve) => setTimeout(resolve, 300));
      fs.writeSync(fd, JSON.stringify(claudePayload(h, 'session-start', 'sess-fifo', { source: 'startup' })));
      const result = await pending;
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain(ACTIVE.name);
      expect(result.ms).toBeLessThan(STDIN_TIMEOUT_MS);
    } finally {
      fs.closeSync(fd);
    }
  });

  it('from a writer that keeps stdin open and writes nothing: answers after its wait, ends when stdin closes', async () => {
    const h = (home = await makeHookHome());
    const closeAfterMs = STDIN_TIMEOUT_MS + 500;
    const result = await runSlowWriter(['stop', '--assistant', 'claude'], h.env, [], closeAfterMs);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // The documented limit (hooks/hook-stdin.ts): the process ends with stdin, but the hook had
    // done its work at its wait, as its log line says.
    expect(result.ms).toBeGreaterThanOrEqual(closeAfterMs - 50);
    const log = fs.readFileSync(path.join(h.config().paths.logsDir, 'hooks.log'), 'utf8');
    const took = Number(/claude stop: 0 chars in (\d+) ms/.exec(log)?.[1]);
    expect(took).toBeGreaterThanOrEqual(STDIN_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(closeAfterMs);
  });

  it('with stdout closed before the answer (EPIPE): exits 0, no stack trace', async () => {
    const h = (home = await makeHookHome());
    h.transcript('sess-epipe');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [hookBundle(), 'session-start', '--assistant', 'claude'], { env: h.env, stdio: ['pipe', 'pipe', 'pipe'] });
      // The reader goes away before the hook writes its answer.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('close', (code) => {
        clearTimeout(killer);
        resolve({ code, stderr });
      });
      child.stdin.end(JSON.stringify(claudePayload(h, 'session-start', 'sess-epipe', { source: 'startup' })));
    });
    expect(result).toEqual({ code: 0, stderr: '' });
  });
});
