import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookEventName } from '../../common/hook-events.js';
import { ensureToken } from '../../main/core/platform/ipc/token.js';
import { killAndWait, runNode, waitFor, type ChildRun } from '../ipc/daemon-kit.js';
import { expectFailOpen, runEveryEvent, type Expect } from './fail-open-kit.js';
import { ALL_EVENTS, claudePayload, forgetSessions, makeHookHome, runHook, startReadyDaemon, type HookHome } from './hook-kit.js';

/**
 * HOOK-2 with the daemon in every bad state the hook can meet: never started, stopped
 * (SIGSTOP: it accepts the connection and never answers), dying mid-reply, and a socket file
 * nobody listens on. Every hook exits 0 on its own and prints the answer the files give — or,
 * for the events that have none, nothing. With a hung daemon, each hook gave up on its own wait
 * while the daemon was still stopped (its log says so). How long that takes is a speed target:
 * `npm run bench -- hooks` measures it (daemon hung), not this test.
 *
 * Each test has its own home (so its own socket, token and spool), and its daemons and servers
 * are stopped when it ends, pass or fail (test/helpers/child-guard.ts): a failure here cannot
 * leave a socket or a daemon behind for the next test.
 */
let home: HookHome;
const children: ChildRun[] = [];
const SESSION = 'sess-faults';

/** What each event prints when the hook answers from the files (it does in all of these). */
const ANSWERED: Expect = 'answer';

beforeEach(async () => {
  home = await makeHookHome();
  home.transcript(SESSION);
});
afterEach(async () => {
  for (const child of children.splice(0)) await killAndWait(child);
  home?.cleanup();
});

async function everyEventFailsOpen(label: string): Promise<void> {
  forgetSessions(home);
  for (const [event, run] of await runEveryEvent(home, ALL_EVENTS, SESSION)) expectFailOpen(event, run, ANSWERED);
  // Nothing is lost: every event that needed the app is in the spool for it.
  expect(fs.readdirSync(home.config().paths.spoolDir).filter((name) => name.endsWith('.json')).length, label).toBeGreaterThanOrEqual(4);
}

/** The hook log's word on why each event was answered from the files. */
function fallbackReasons(): Map<string, string> {
  const log = path.join(home.config().paths.logsDir, 'hooks.log');
  const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
  return new Map([...text.matchAll(/\b([a-z-]+): daemon did not answer \(([a-z-]+)\)/g)].map((m) => [m[1]!, m[2]!]));
}

/** The events whose hook asks the daemon at all (a prompt that names nobody is answered by the hook). */
const ASKS_THE_DAEMON: readonly HookEventName[] = ALL_EVENTS.filter((event) => event !== 'user-prompt-submit');

function listeningServer(socketPath: string): Promise<ChildRun> {
  const server = runNode('test/ipc/fixtures/half-reply-server.ts', [socketPath], home.env);
  children.push(server);
  return waitFor(() => {
    if (!server.isRunning()) throw new Error(`half-reply server exited: ${server.output().stderr}`);
    return server.output().stdout.includes('listening') ? server : undefined;
  }, 'the half-reply server to listen');
}

describe('every hook fails open when the daemon cannot answer', () => {
  it('daemon never started on this memory home (no token, no socket)', async () => {
    const { tokenFile, socketPath } = home.config().paths;
    expect(fs.existsSync(tokenFile) || fs.existsSync(socketPath)).toBe(false);
    await everyEventFailsOpen('never started');
  });

  it('daemon hung (SIGSTOP): each hook gives up on its own wait and answers from the files', async () => {
    const daemon = await startReadyDaemon(home);
    children.push(daemon);
    process.kill(daemon.pid, 'SIGSTOP');
    try {
      await everyEventFailsOpen('hung');
      // Every hook that asked the daemon gave up on it (timeout) while it was still stopped: the
      // answers above came from the files, before the daemon could have replied.
      const reasons = fallbackReasons();
      for (const event of ASKS_THE_DAEMON) expect(reasons.get(event), event).toBe('timeout');
    } finally {
      process.kill(daemon.pid, 'SIGCONT');
    }
  });

  it('daemon stopped cleanly (token left, socket gone)', async () => {
    await killAndWait(await startReadyDaemon(home), 'SIGTERM');
    expect(fs.existsSync(home.config().paths.tokenFile)).toBe(true);
    expect(fs.existsSync(home.config().paths.socketPath)).toBe(false);
    await everyEventFailsOpen('stopped');
  });

  it('daemon dies mid-reply (half a line, then exit)', async () => {
    const { socketPath, tokenFile } = home.config().paths;
    ensureToken(tokenFile);
    forgetSessions(home);
    for (const event of ALL_EVENTS) {
      const server = await listeningServer(socketPath);
      const run = await runHook(event, claudePayload(home, event, SESSION), home.env);
      expectFailOpen(event, run, ANSWERED);
      if (event === 'user-prompt-submit') {
        // A prompt that names nobody is answered by the hook itself (call/silent-prompt.ts): the
        // app is never asked, so this server gets no request and is stopped here.
        expect(server.output().stdout).not.toContain('served');
        await killAndWait(server);
      } else await server.exited;
      fs.rmSync(socketPath, { force: true });
    }
  });

  it('stale socket file: a socket left by a killed daemon, nobody listening', async () => {
    const { socketPath } = home.config().paths;
    const server = await listeningServer(socketPath);
    await killAndWait(server, 'SIGKILL');
    expect(fs.statSync(socketPath).isSocket()).toBe(true);
    await everyEventFailsOpen('stale socket');
  });

  it('stale file: a regular file where the socket should be', async () => {
    const { socketPath } = home.config().paths;
    fs.writeFileSync(socketPath, 'not a socket');
    await everyEventFailsOpen('regular file');
  });
});
