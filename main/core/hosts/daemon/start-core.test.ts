import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SleepRoleResult, SleepStatus } from '../../../../common/hook-protocol.js';
import { createFakeSchedule } from '../../../../test/helpers/fake-schedule.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { requestStatus } from '../../platform/ipc/ipc-client.js';
import { silentLogger } from '../../platform/config/log.js';
import { startCore, type KiokuCore } from './start-core.js';

/**
 * startCore is what `kioku daemon` and the tray app both run. The socket is real (a temp home);
 * time and consolidation are fakes, so nothing here waits on a clock or a planner.
 */
const NOW = '2026-03-10T14:00:00+08:00';
let home: TempHome | undefined;
let core: KiokuCore | undefined;

afterEach(async () => {
  await core?.stop();
  core = undefined;
  home?.cleanup();
  home = undefined;
});

function ok(role: string): SleepRoleResult {
  return { id: role, ok: true, processed: 1, created: 1, merged: 0, discarded: 0, forgotten: 0, left: 0 };
}

/** ALPHA01 has one inbox item, BETA01 an empty memory folder. */
function setup(options: { schedulePaused?: boolean; schedule?: boolean } = {}) {
  // Awake at NOW whatever the machine's time zone: the window is local time (SLEEP-1).
  const hour = new Date(NOW).getHours();
  const hh = (n: number) => `${String((n + 24) % 24).padStart(2, '0')}:00`;
  home = makeTempHome({ KIOKU_NOW: NOW, ROLE_SLEEP_START: hh(hour + 2), ROLE_SLEEP_END: hh(hour + 3) });
  fs.mkdirSync(path.join(home.memoryHome, 'ALPHA01', 'inbox'), { recursive: true });
  fs.writeFileSync(path.join(home.memoryHome, 'ALPHA01', 'inbox', '20260310-130000-aaaaaa.md'), '---\nid: x\n---\n記住這件事\n');
  fs.mkdirSync(path.join(home.memoryHome, 'BETA01'), { recursive: true });
  const fake = createFakeSchedule(new Date(NOW));
  const calls: string[] = [];
  let gate: Promise<void> | undefined;
  const consolidate = async (role: string, reason: string) => {
    calls.push(`${reason}:${role}`);
    await gate;
    return ok(role);
  };
  const started = startCore(home.config(), {
    logger: silentLogger,
    version: 'test',
    schedule: options.schedule ?? true,
    schedulePaused: options.schedulePaused ?? false,
    scheduler: { timer: fake.timer, consolidate, runBrief: async () => undefined },
  });
  core = started;
  return {
    core: started,
    fake,
    calls,
    hold() {
      let release: () => void = () => undefined;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('startCore: the core of `kioku daemon` and the tray app', () => {
  it('serves the socket and runs the schedule, whose state the status reply carries', async () => {
    const { core, fake, calls } = setup();
    await core.ready;
    expect(core.scheduleMode()).toBe('running');
    expect(fake.activeRules().length).toBeGreaterThan(0);
    const reply = await requestStatus(home!.config().paths, 2_000);
    expect(reply.ok && reply.reply.status.sleep?.state).toBe('awake');
    // A start checks every role for a catch-up once (CTX-8): ALPHA01 has never slept and has an inbox.
    for (let i = 0; i < 100 && !calls.includes('catch-up:ALPHA01'); i++) await settle();
    expect(calls).toContain('catch-up:ALPHA01');
    expect(calls).not.toContain('catch-up:BETA01');
  });

  it('pausing cancels the timer jobs and says so in the status; resuming schedules again', async () => {
    const { core, fake } = setup();
    await core.ready;
    const heard: SleepStatus[] = [];
    core.onSleepStatus((status) => heard.push(status));
    core.pauseSchedule();
    expect(core.scheduleMode()).toBe('paused');
    expect(fake.activeRules()).toEqual([]);
    expect(core.sleepStatus().lastCheck).toMatchObject({ kind: 'schedule', outcome: 'paused by the user' });
    expect(core.daemon.status().sleep?.lastCheck?.outcome).toBe('paused by the user');
    expect(heard.length).toBeGreaterThan(0);
    core.resumeSchedule();
    await settle();
    expect(core.scheduleMode()).toBe('running');
    expect(fake.activeRules().length).toBeGreaterThan(0);
  });

  it('starts paused when the saved choice says so: no timer jobs at all', async () => {
    const { core, fake, calls } = setup({ schedulePaused: true });
    await core.ready;
    await settle();
    expect(core.scheduleMode()).toBe('paused');
    expect(fake.activeRules()).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('"sleep now" consolidates every role at once, outside the window, shown as consolidating', async () => {
    const { core, calls, hold } = setup({ schedulePaused: true });
    await core.ready;
    const release = hold();
    const running = core.sleepNow();
    for (let i = 0; i < 100 && calls.length === 0; i++) await settle();
    expect(core.sleepStatus()).toMatchObject({ state: 'consolidating', role: 'ALPHA01' });
    expect(core.daemon.status().sleep?.state).toBe('consolidating');
    release();
    const result = await running;
    expect(calls).toEqual(['sleep:ALPHA01', 'sleep:BETA01']);
    expect(result.run?.roles.map((r) => r.id)).toEqual(['ALPHA01', 'BETA01']);
    expect(core.sleepStatus().state).toBe('awake');
    expect(core.sleepStatus().lastRun).toMatchObject({ reason: 'sleep', ok: true });
  });

  it('"nap now" takes only roles with something in the inbox, and says when there is none', async () => {
    const { core, calls } = setup({ schedulePaused: true });
    await core.ready;
    expect((await core.napNow()).run?.roles.map((r) => r.id)).toEqual(['ALPHA01']);
    expect(calls).toEqual(['nap:ALPHA01']);
    fs.rmSync(path.join(home!.memoryHome, 'ALPHA01', 'inbox'), { recursive: true });
    expect((await core.napNow()).run).toBeNull();
    expect(core.sleepStatus().lastCheck?.outcome).toContain('no inbox');
  });

  it('with no schedule (`--no-schedule`) the status reply has no sleep field, and pause does nothing', async () => {
    const { core, fake } = setup({ schedule: false });
    await core.ready;
    expect(core.scheduleMode()).toBe('off');
    expect(core.daemon.status().sleep).toBeUndefined();
    core.pauseSchedule();
    expect(core.scheduleMode()).toBe('off');
    expect(fake.activeRules()).toEqual([]);
  });

  it('stop removes the socket and is idempotent', async () => {
    const { core } = setup();
    await core.ready;
    const socket = core.daemon.socketPath;
    expect(fs.existsSync(socket)).toBe(true);
    await core.stop();
    await core.stop();
    expect(fs.existsSync(socket)).toBe(false);
  });
});
