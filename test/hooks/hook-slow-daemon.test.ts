import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DAEMON_WAIT_MS } from '../../hooks/hook-budgets.js';
import { killAndWait, type ChildRun } from '../ipc/daemon-kit.js';
import { SLACK_MS } from './fail-open-kit.js';
import { ACTIVE, CALLEE, claudePayload, forgetSessions, makeHookHome, runHook, startReadyDaemon, type HookHome } from './hook-kit.js';

/**
 * A daemon that answers, but later than the hook waits (a big memory home: at 10,000 memories a
 * SessionStart or a call takes the daemon about a second on a 2-core machine, see
 * `npm run bench -- hooks`). The daemon has already done the answer's side effects (lock,
 * session role, snapshot) when the hook gives up and answers from the files itself; that answer
 * must still be the whole answer. KIOKU_TEST_REPLY_DELAY_MS holds each reply after it was
 * computed, so the race is the same on any machine.
 */
let home: HookHome | undefined;
let daemon: ChildRun | undefined;
afterEach(async () => {
  if (daemon) await killAndWait(daemon, 'SIGTERM');
  daemon = undefined;
  home?.cleanup();
  home = undefined;
});

async function slowDaemonHome(event: 'session-start' | 'user-prompt-submit'): Promise<{ h: HookHome; answered: () => number }> {
  const h = (home = await makeHookHome());
  const answeredLog = path.join(h.root, 'answered.log');
  daemon = await startReadyDaemon(h, { KIOKU_TEST_ANSWERED_LOG: answeredLog, KIOKU_TEST_REPLY_DELAY_MS: String(DAEMON_WAIT_MS[event] + 500) });
  return { h, answered: () => (fs.existsSync(answeredLog) ? fs.readFileSync(answeredLog, 'utf8').split('\n').filter(Boolean).length : 0) };
}

describe('a daemon slower than the hook waits', () => {
  it('SessionStart: the hook answers from the files, with the whole load', async () => {
    const { h, answered } = await slowDaemonHome('session-start');
    h.transcript('sess-slow');
    const payload = claudePayload(h, 'session-start', 'sess-slow');
    const run = await runHook('session-start', payload, h.env);
    expect(answered()).toBe(1); // the daemon did the work (and claimed the lock) before the hook gave up
    expect(run).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(run.ms).toBeLessThanOrEqual(DAEMON_WAIT_MS['session-start'] + SLACK_MS);
    expect(run.stdout).toContain(ACTIVE.name);
    expect(run.stdout).toContain('黑咖啡');
    // The same bytes as the files give with nobody having touched them first (HOOK-5).
    await killAndWait(daemon!, 'SIGTERM');
    daemon = undefined;
    forgetSessions(h);
    expect((await runHook('session-start', payload, h.env)).stdout).toBe(run.stdout);
  });

  // Found by the hooks bench: the daemon switched the session before its slow load, so the
  // hook's fallback found "same role as now" and printed nothing — the call was lost. The switch
  // now records the event that made it (decide-call.ts), and the fallback recognises it.
  it('UserPromptSubmit call by name: the callee is still loaded', async () => {
    const { h, answered } = await slowDaemonHome('user-prompt-submit');
    h.transcript('sess-slow-call');
    const run = await runHook('user-prompt-submit', claudePayload(h, 'user-prompt-submit', 'sess-slow-call', { prompt: `${CALLEE.name}，幫我整理一下` }), h.env);
    expect(answered()).toBe(1);
    expect(run).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(run.ms).toBeLessThanOrEqual(DAEMON_WAIT_MS['user-prompt-submit'] + SLACK_MS);
    expect(run.stdout).toContain(CALLEE.name);
    expect(run.stdout).toContain('麻糬');
  });
});
