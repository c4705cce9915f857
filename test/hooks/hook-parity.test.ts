import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killAndWait, type ChildRun } from '../ipc/daemon-kit.js';
import { ACTIVE, CALLEE, claudePayload, forgetSessions, makeHookHome, runHook, startReadyDaemon, type HookHome } from './hook-kit.js';

/**
 * HOOK-5: "the same answer computed from the files with the same code". The same hook, for the
 * same files, answered once by the real daemon and once by the hook client alone (no daemon),
 * prints the same bytes. Lock, session-role and snapshot state are removed between the two runs
 * so both see the same files.
 */
let home: HookHome;
let daemon: ChildRun | undefined;
let answeredLog: string;

beforeAll(async () => {
  home = await makeHookHome();
  answeredLog = path.join(home.root, 'answered.log');
});
// Each test stops the daemon it started (cleanly: its socket goes with it), pass or fail.
afterEach(async () => {
  if (daemon) await killAndWait(daemon, 'SIGTERM');
  daemon = undefined;
});
afterAll(() => home?.cleanup());

const answered = () =>
  fs.existsSync(answeredLog)
    ? fs
        .readFileSync(answeredLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { event: string; chars: number })
    : [];
const hooksLog = () => {
  const file = path.join(home.config().paths.logsDir, 'hooks.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
};

async function bothWays(
  event: 'session-start' | 'user-prompt-submit',
  payload: Record<string, unknown>,
): Promise<{ fallback: string; daemon: string }> {
  if (daemon) {
    await killAndWait(daemon, 'SIGTERM');
    daemon = undefined;
  }
  expect(fs.existsSync(home.config().paths.socketPath)).toBe(false);
  forgetSessions(home);
  const down = await runHook(event, payload, home.env);
  expect(down).toMatchObject({ code: 0, signal: null, stderr: '' });

  forgetSessions(home);
  daemon = await startReadyDaemon(home, { KIOKU_TEST_ANSWERED_LOG: answeredLog });
  const before = answered().length;
  const up = await runHook(event, payload, home.env);
  expect(up).toMatchObject({ code: 0, signal: null, stderr: '' });
  // The daemon answered, and the hook used its answer (no fallback after a timeout or an error).
  expect(answered().slice(before)).toEqual([{ event, eventId: expect.any(String), chars: up.stdout.length }]);
  expect(hooksLog()).not.toMatch(/did not answer/);
  return { fallback: down.stdout, daemon: up.stdout };
}

describe('the daemon and the fallback print the same bytes', () => {
  it('SessionStart (source startup)', async () => {
    home.transcript('sess-start');
    const out = await bothWays('session-start', claudePayload(home, 'session-start', 'sess-start'));
    expect(out.daemon).toBe(out.fallback);
    expect(out.daemon.length).toBeGreaterThan(200);
    expect(out.daemon.length).toBeLessThanOrEqual(9_800); // CTX-3
    expect(out.daemon).toContain(ACTIVE.name);
    expect(out.daemon).toContain('黑咖啡'); // a memory in Chinese
    expect(out.daemon).toContain('staging'); // a memory in English
    expect(out.daemon).toContain('rate limiter'); // the transcript's dialog (CTX-6)
  });

  it('UserPromptSubmit that calls a role by name', async () => {
    home.transcript('sess-call');
    const payload = claudePayload(home, 'user-prompt-submit', 'sess-call', { prompt: `${CALLEE.name}，幫我整理一下今天做了什麼` });
    const out = await bothWays('user-prompt-submit', payload);
    expect(out.daemon).toBe(out.fallback);
    expect(out.daemon).toContain(CALLEE.name);
    expect(out.daemon).toContain('麻糬'); // the callee's own memory, not the active role's
    expect(out.daemon).not.toContain('黑咖啡');
    // The switch was recorded (CALL-3) by whichever answered.
    expect(fs.readFileSync(path.join(home.roleHome, '.sessions', 'sess-call.role'), 'utf8').split('\n')[0]).toBe(CALLEE.id);
  });
});
