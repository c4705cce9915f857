import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureToken } from '../../main/core/ipc/token.js';
import { killAndWait, runNode, waitFor, type ChildRun } from '../ipc/daemon-kit.js';
import { expectFailOpen, runEveryEvent, type Expect } from './fail-open-kit.js';
import { ALL_EVENTS, claudePayload, forgetSessions, makeHookHome, runHook, startReadyDaemon, type HookHome } from './hook-kit.js';

/**
 * HOOK-2 with the daemon in every bad state the hook can meet: never started, stopped
 * (SIGSTOP: it accepts the connection and never answers), dying mid-reply, and a socket file
 * nobody listens on. Every hook exits 0 within its wait (hooks/hook-budgets.ts) plus the time to
 * answer from the files, and prints the answer the files give — or, for the events that have
 * none, nothing.
 */
let home: HookHome;
const children: ChildRun[] = [];
const SESSION = 'sess-faults';

/** What each event prints when the hook answers from the files (it does in all of these). */
const ANSWERED: Expect = 'answer';

beforeAll(async () => {
  home = await makeHookHome();
  home.transcript(SESSION);
});
afterAll(async () => {
  for (const child of children.splice(0)) {
    try {
      process.kill(child.pid, 'SIGCONT');
    } catch {
      /* gone */
    }
    await killAndWait(child);
  }
  home?.cleanup();
});

async function everyEventFailsOpen(label: string): Promise<void> {
  forgetSessions(home);
  for (const [event, run] of await runEveryEvent(home, ALL_EVENTS, SESSION)) expectFailOpen(event, run, ANSWERED);
  // Nothing is lost: every event that needed the app is in the spool for it.
  expect(fs.readdirSync(home.config().paths.spoolDir).filter((name) => name.endsWith('.json')).length, label).toBeGreaterThanOrEqual(4);
}

function listeningServer(socketPath: string): Promise<ChildRun> {
  const server = runNode('test/ipc/fixtures/half-reply-server.ts', [socketPath], home.env);
  children.push(server);
  return waitFor(() => {
    if (!server.isRunning()) throw new Error(`half-reply server exited: ${server.output().stderr}`);
    return server.output().stdout.includes('listening') ? server : undefined;
  }, 'the half-reply server to listen');
}

function clearSpool(): void {
  fs.rmSync(home.config().paths.spoolDir, { recursive: true, force: true });
}

describe('every hook fails open when the daemon cannot answer', () => {
  it('daemon never started on this memory home (no token, no socket)', async () => {
    const { tokenFile, socketPath } = home.config().paths;
    expect(fs.existsSync(tokenFile) || fs.existsSync(socketPath)).toBe(false);
    await everyEventFailsOpen('never started');
  });

  it('daemon hung (SIGSTOP): each hook gives up after its wait and answers from the files', async () => {
    clearSpool();
    const daemon = await startReadyDaemon(home);
    children.push(daemon);
    process.kill(daemon.pid, 'SIGSTOP');
    try {
      await everyEventFailsOpen('hung');
    } finally {
      process.kill(daemon.pid, 'SIGCONT');
    }
    await killAndWait(daemon, 'SIGTERM');
  });

  it('daemon stopped cleanly (token left, socket gone)', async () => {
    clearSpool();
    expect(fs.existsSync(home.config().paths.tokenFile)).toBe(true);
    expect(fs.existsSync(home.config().paths.socketPath)).toBe(false);
    await everyEventFailsOpen('stopped');
  });

  it('daemon dies mid-reply (half a line, then exit)', async () => {
    clearSpool();
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
    clearSpool();
    const { socketPath } = home.config().paths;
    const server = await listeningServer(socketPath);
    await killAndWait(server, 'SIGKILL');
    expect(fs.statSync(socketPath).isSocket()).toBe(true);
    await everyEventFailsOpen('stale socket');
    fs.rmSync(socketPath, { force: true });
  });

  it('stale file: a regular file where the socket should be', async () => {
    clearSpool();
    const { socketPath } = home.config().paths;
    fs.writeFileSync(socketPath, 'not a socket');
    await everyEventFailsOpen('regular file');
    fs.rmSync(socketPath, { force: true });
  });
});
