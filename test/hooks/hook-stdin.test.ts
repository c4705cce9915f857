import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
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

function run(args: string[], env: NodeJS.ProcessEnv, stdin: 'pipe' | number, write?: string, close = true): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
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
      if (write !== undefined) child.stdin.write(write);
      if (close) child.stdin.end();
    }
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
});
