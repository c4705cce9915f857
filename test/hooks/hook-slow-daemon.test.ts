import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killAndWait, waitFor, type ChildRun } from '../ipc/daemon-kit.js';
import {
  ACTIVE,
  CALLEE,
  claudePayload,
  forgetSessions,
  makeHookHome,
  runHook,
  startReadyDaemon,
  type HookHome,
  type HookRun,
} from './hook-kit.js';

/**
 * A daemon that answers, but later than the hook waits (a big memory home: at 10,000 memories a
 * SessionStart or a call takes the daemon about a second on a 2-core machine, see
 * `npm run bench -- hooks`). The daemon has already done the answer's side effects (lock,
 * session role, snapshot) when the hook gives up and answers from the files itself; that answer
 * must still be the whole answer.
 *
 * The race is set by order, not by time (hook-daemon.ts, KIOKU_TEST_REPLY_GATE): the hook is
 * held (SIGSTOP) from the moment its request reaches the daemon until the daemon has written
 * the answer's files, and the daemon's reply is held until the test opens the gate — which it
 * does only after the hook has exited. So on any machine: the daemon did the work first, the
 * hook answered and exited 0 before the daemon replied.
 */
let home: HookHome | undefined;
let daemon: ChildRun | undefined;
let gate: string | undefined;
afterEach(async () => {
  // A held reply would hold the daemon's clean stop: let it go first.
  if (gate) fs.writeFileSync(gate, '');
  gate = undefined;
  if (daemon) await killAndWait(daemon, 'SIGTERM');
  daemon = undefined;
  home?.cleanup();
  home = undefined;
});

const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

async function slowDaemonHome(): Promise<{ h: HookHome; answered: () => number; replied: () => number; openGate: () => void }> {
  const h = (home = await makeHookHome());
  const answeredLog = path.join(h.root, 'answered.log');
  const repliedLog = path.join(h.root, 'replied.log');
  const gateFile = (gate = path.join(h.root, 'reply-gate'));
  daemon = await startReadyDaemon(h, {
    KIOKU_TEST_ANSWERED_LOG: answeredLog,
    KIOKU_TEST_REPLIED_LOG: repliedLog,
    KIOKU_TEST_REPLY_GATE: gateFile,
  });
  return {
    h,
    answered: () => lines(answeredLog).length,
    replied: () => lines(repliedLog).length,
    openGate: () => fs.writeFileSync(gateFile, ''),
  };
}

/** The hook's own log: it gave up on the daemon (its wait ran out) and answered from the files. */
function fellBackOnTimeout(h: HookHome, event: string): boolean {
  const log = path.join(h.config().paths.logsDir, 'hooks.log');
  return fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes(`${event}: daemon did not answer (timeout)`);
}

function expectAnsweredBeforeTheDaemon(run: HookRun, h: HookHome, event: string, state: { answered: number; replied: number }): void {
  expect(state.answered).toBe(1); // the daemon did the work (and claimed the lock) before the hook gave up
  expect(state.replied).toBe(0); // …and had not replied when the hook exited
  expect(run).toMatchObject({ code: 0, signal: null, stderr: '' });
  expect(fellBackOnTimeout(h, event)).toBe(true);
}

describe('a daemon slower than the hook waits', () => {
  it('SessionStart: the hook answers from the files, with the whole load', async () => {
    const { h, answered, replied, openGate } = await slowDaemonHome();
    h.transcript('sess-slow');
    const payload = claudePayload(h, 'session-start', 'sess-slow');
    const run = await runHook('session-start', payload, h.env, { ownPidInEnv: true });
    expectAnsweredBeforeTheDaemon(run, h, 'session-start', { answered: answered(), replied: replied() });
    expect(run.stdout).toContain(ACTIVE.name);
    expect(run.stdout).toContain('黑咖啡');
    // The daemon's reply was really held (not lost): it goes out once the gate opens.
    openGate();
    await waitFor(() => replied() === 1, 'the daemon to send its held reply');
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
    const { h, answered, replied } = await slowDaemonHome();
    h.transcript('sess-slow-call');
    const run = await runHook(
      'user-prompt-submit',
      claudePayload(h, 'user-prompt-submit', 'sess-slow-call', { prompt: `${CALLEE.name}，幫我整理一下` }),
      h.env,
      { ownPidInEnv: true },
    );
    expectAnsweredBeforeTheDaemon(run, h, 'user-prompt-submit', { answered: answered(), replied: replied() });
    expect(run.stdout).toContain(CALLEE.name);
    expect(run.stdout).toContain('麻糬');
  });
});
