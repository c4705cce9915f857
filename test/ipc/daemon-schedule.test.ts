import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonStatus } from '../../common/hook-protocol.js';
import { requestHook, requestStatus } from '../../main/core/platform/ipc/ipc-client.js';
import { categoryDir } from '../../main/core/store/memory/memory-layout.js';
import { rememberText } from '../../main/core/engine/capture/remember.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { captureHomeEnv, createCaptureRole, NOW_ISO, ROLE } from './capture-session-kit.js';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { bundled, endpointOf, killAndWait, runNode, waitFor, waitReady, type ChildRun } from './daemon-kit.js';

/**
 * `kioku daemon` as shipped runs the sleep scheduler (SLEEP-7, CTX-8): its status reply carries
 * the sleep state, a start checks every role for a catch-up once, and a SessionStart it answers
 * asks for one. Consolidation runs for real (the local planner, in a worker). Waits are on the
 * daemon's own status, never on time.
 */
const CLI = 'test/ipc/fixtures/kioku-cli.ts';
const SLOW_MS = 120_000;
let home: TempHome | undefined;
let daemon: ChildRun | undefined;

afterEach(async () => {
  if (daemon) await killAndWait(daemon, 'SIGTERM');
  daemon = undefined;
  home?.cleanup();
  home = undefined;
});

function inboxFiles(h: TempHome): string[] {
  const dir = categoryDir(h.memoryHome, ROLE.id, 'inbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.md')) : [];
}

async function status(h: TempHome): Promise<DaemonStatus | undefined> {
  const result = await requestStatus(endpointOf(h), 2_000);
  return result.ok ? result.reply.status : undefined;
}

async function remember(h: TempHome, n: number) {
  for (let i = 0; i < n; i++) await rememberText(h.config(), ROLE.id, { text: `記住：第 ${i} 個服務改用藍綠部署，舊版保留一天。` });
}

/**
 * The CLI bundle needs the consolidation worker beside it, as `npm run build` puts sleep-worker.js
 * beside run-in-worker.js (run-in-worker.ts resolveSleepWorkerFile).
 */
let workerCopied = false;
function withWorker(): void {
  if (workerCopied) return;
  fs.copyFileSync(bundleEntry('main/core/engine/sleep/sleep-worker.ts'), path.join(path.dirname(bundled(CLI)), 'sleep-worker.mjs'));
  workerCopied = true;
}

function start(h: TempHome, args: string[] = []): ChildRun {
  withWorker();
  // KIOKU_NO_SCHEDULE cleared: this test wants the scheduler the temp home turns off by default.
  return runNode(CLI, ['daemon', ...args], { ...h.env, KIOKU_NO_SCHEDULE: '' });
}

describe('kioku daemon runs the sleep schedule', () => {
  it('reports the sleep state in its status; --no-schedule has none', { timeout: SLOW_MS }, async () => {
    home = makeTempHome({ ...captureHomeEnv(), KIOKU_NO_SCHEDULE: '' });
    createCaptureRole(home);
    daemon = start(home);
    const ready = await waitReady(home, daemon);
    expect(ready.sleep).toMatchObject({ state: 'awake', role: null, lastRun: null });
    expect(Date.parse(ready.sleep!.nextCheck!)).toBeGreaterThan(Date.now() - 60_000);
    await killAndWait(daemon, 'SIGTERM');

    daemon = start(home, ['--no-schedule']);
    const plain = await waitReady(home, daemon);
    expect(plain.sleep).toBeUndefined();
  });

  it('a start consolidates an overdue role once (catch-up), in a worker, and says so', { timeout: SLOW_MS }, async () => {
    home = makeTempHome({ ...captureHomeEnv(), KIOKU_NO_SCHEDULE: '' });
    createCaptureRole(home);
    await remember(home, 3);
    expect(inboxFiles(home)).toHaveLength(3);
    daemon = start(home);
    await waitReady(home, daemon);
    const done = await waitFor(
      async () => {
        const s = await status(home!);
        return s?.sleep?.lastRun ? s.sleep : undefined;
      },
      'the start-up catch-up to finish',
      SLOW_MS,
    );
    expect(done.lastRun).toMatchObject({ reason: 'catch-up', ok: true, roles: [{ id: ROLE.id, ok: true, processed: 3, left: 0 }] });
    expect(done.state).toBe('awake');
    expect(inboxFiles(home)).toEqual([]);
    const state = JSON.parse(fs.readFileSync(path.join(home.memoryHome, ROLE.id, 'state.json'), 'utf8'));
    expect(Date.parse(state.last_sleep)).toBe(Date.parse(NOW_ISO));

    // `kioku status` takes the state from the running daemon (OPS-1).
    const cli = spawnSync(process.execPath, [bundled(CLI), 'status', '--json'], { env: home.env, encoding: 'utf8', timeout: 60_000 });
    expect(cli.status).toBe(0);
    const report = JSON.parse(cli.stdout);
    expect(report).toMatchObject({
      stateSource: 'daemon',
      state: 'awake',
      daemon: { running: true, pid: daemon.pid, scheduler: true, sleep: { lastRun: { reason: 'catch-up' } } },
    });
    expect(report.schedule).toMatchObject({ present: true, by: ['daemon'], coveredRoles: [ROLE.id] });
    expect(report.roles[0]).toMatchObject({ id: ROLE.id, inbox: 0 });
  });

  it('a SessionStart it answers asks for a catch-up when the role is overdue (CTX-8)', { timeout: SLOW_MS }, async () => {
    home = makeTempHome({ ...captureHomeEnv(), KIOKU_NO_SCHEDULE: '' });
    createCaptureRole(home);
    // Slept 30 h before "now", nothing waiting: the start-up check finds nothing to do.
    fs.mkdirSync(path.join(home.memoryHome, ROLE.id), { recursive: true });
    fs.writeFileSync(path.join(home.memoryHome, ROLE.id, 'state.json'), JSON.stringify({ last_sleep: '2026-03-09T08:00:00+08:00' }));
    daemon = start(home);
    await waitReady(home, daemon);
    await remember(home, 2);
    const reply = await requestHook(
      endpointOf(home),
      {
        id: 'ss-1',
        assistant: 'claude',
        event: 'session-start',
        payload: { session_id: 's1', source: 'startup', cwd: home.root, hook_event_name: 'SessionStart' },
      },
      10_000,
    );
    expect(reply.ok && reply.reply.ok).toBe(true);
    const done = await waitFor(
      async () => {
        const s = await status(home!);
        return s?.sleep?.lastRun ? s.sleep : undefined;
      },
      'the SessionStart catch-up to finish',
      SLOW_MS,
    );
    expect(done.lastRun).toMatchObject({ reason: 'catch-up', ok: true, roles: [{ id: ROLE.id, processed: 2 }] });
    expect(inboxFiles(home)).toEqual([]);
  });
});
