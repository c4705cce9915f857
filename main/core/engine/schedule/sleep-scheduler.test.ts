import { describe, expect, it } from 'vitest';
import type { SleepRoleResult } from '../../../../common/hook-protocol.js';
import { createFakeSchedule, type FakeSchedule } from '../../../../test/helpers/fake-schedule.js';
import { silentLogger } from '../../platform/config/log.js';
import { createSleepScheduler, type SchedulerSettings, type SleepScheduler } from './sleep-scheduler.js';
import type { RunReason } from './sleep-state.js';

/** Local times, whatever TZ the test runs in: the sleep window is local time (SLEEP-1). */
const at = (day: number, hour: number, minute = 0) => new Date(2026, 11, day, hour, minute);
const hhmm = (d: Date) => `${String(d.getDate())} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

interface World {
  fake: FakeSchedule;
  scheduler: SleepScheduler;
  calls: Array<{ role: string; reason: RunReason; at: string }>;
  briefs: Array<{ role: string; at: string }>;
  inbox: Map<string, number>;
  lastSleep: Map<string, Date>;
  lastInteraction: Map<string, Date>;
  assistants: string[];
  maxConcurrent: number;
  failNext: Set<string>;
  advance(to: Date): Promise<void>;
}

function world(options: { start: Date; roles?: string[]; settings?: Partial<SchedulerSettings>; brief?: boolean }): World {
  const fake = createFakeSchedule(options.start);
  const settings: SchedulerSettings = {
    ROLE_SLEEP_START: '22:00',
    ROLE_SLEEP_END: '06:00',
    ROLE_NAP_ENABLED: false,
    ROLE_NAP_IDLE_MINUTES: 45,
    ROLE_NAP_MIN_INBOX: 3,
    ROLE_NAP_INTERVAL_MINUTES: 10,
    ROLE_BRIEF_ENABLED: true,
    ...options.settings,
  };
  let running = 0;
  const w: Omit<World, 'scheduler' | 'advance'> = {
    fake,
    calls: [],
    briefs: [],
    inbox: new Map(),
    lastSleep: new Map(),
    lastInteraction: new Map(),
    assistants: [],
    maxConcurrent: 0,
    failNext: new Set(),
  };
  const scheduler = createSleepScheduler({
    clock: fake.clock,
    timer: fake.timer,
    logger: silentLogger,
    settings: () => settings,
    roles: () => options.roles ?? ['ALPHA01', 'BETA01'],
    inboxCount: (role) => w.inbox.get(role) ?? 0,
    lastInteraction: (role) => w.lastInteraction.get(role),
    lastSleep: (role) => w.lastSleep.get(role),
    assistantProcesses: () => w.assistants,
    consolidate: async (role, reason): Promise<SleepRoleResult> => {
      running += 1;
      w.maxConcurrent = Math.max(w.maxConcurrent, running);
      w.calls.push({ role, reason, at: hhmm(fake.now()) });
      // A real consolidation yields to the event loop many times; so does this one.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      const processed = w.inbox.get(role) ?? 0;
      w.inbox.set(role, 0);
      w.lastSleep.set(role, fake.now());
      if (w.failNext.delete(role))
        return {
          id: role,
          ok: false,
          processed: 0,
          created: 0,
          merged: 0,
          discarded: 0,
          forgotten: 0,
          left: processed,
          error: 'planner said no',
        };
      return { id: role, ok: true, processed, created: processed, merged: 0, discarded: 0, forgotten: 0, left: 0 };
    },
    ...(options.brief === false
      ? {}
      : {
          runBrief: async (role: string) => {
            w.briefs.push({ role, at: hhmm(fake.now()) });
          },
        }),
  });
  // The same object the fakes read from, so a test can change `assistants` and the like later.
  return Object.assign(w, { scheduler, advance: (to: Date) => fake.advanceTo(to, () => scheduler.idle()) });
}

describe('sleep scheduler: hourly checks in the window (SLEEP-1, SLEEP-3)', () => {
  it('consolidates every role in turn at each in-window hour, and never two at once', async () => {
    const w = world({ start: at(1, 21, 30) });
    w.scheduler.start();
    await w.scheduler.idle(); // the start-up catch-up check: nothing to catch up (inboxes empty)
    w.inbox.set('ALPHA01', 2);
    await w.advance(at(2, 6, 30));
    const hours = ['1 22:00', '1 23:00', '2 00:00', '2 01:00', '2 02:00', '2 03:00', '2 04:00', '2 05:00'];
    expect(w.calls).toEqual(
      hours.flatMap((h) => [
        { role: 'ALPHA01', reason: 'sleep', at: h },
        { role: 'BETA01', reason: 'sleep', at: h },
      ]),
    );
    expect(w.maxConcurrent).toBe(1);
    expect(w.scheduler.state.status().lastRun).toMatchObject({ reason: 'sleep', ok: true, roles: [{ id: 'ALPHA01' }, { id: 'BETA01' }] });
  });

  it('skips the hour while an AI assistant runs, and sleeps at the next hour once it has gone', async () => {
    const w = world({ start: at(1, 21, 59), roles: ['ALPHA01'] });
    w.scheduler.start();
    w.assistants = ['12345 claude'];
    await w.advance(at(1, 23, 30));
    expect(w.calls).toEqual([]);
    expect(w.scheduler.state.status().lastCheck).toMatchObject({
      kind: 'sleep',
      outcome: expect.stringMatching(/skipped: an AI assistant is running/),
    });
    w.assistants = [];
    await w.advance(at(2, 0, 30));
    expect(w.calls).toEqual([{ role: 'ALPHA01', reason: 'sleep', at: '2 00:00' }]);
  });

  it('does nothing outside the window', async () => {
    const w = world({ start: at(1, 6, 30) });
    w.scheduler.start();
    w.inbox.set('ALPHA01', 5);
    w.lastSleep.set('ALPHA01', at(1, 5)); // slept last night: no catch-up either
    await w.advance(at(1, 21, 59));
    expect(w.calls).toEqual([]);
  });
});

describe('sleep scheduler: naps (SLEEP-2)', () => {
  it('naps a role idle ≥ 45 minutes with ≥ 3 inbox items, any time of day; others wait', async () => {
    const w = world({ start: at(1, 12, 0), settings: { ROLE_NAP_ENABLED: true } });
    w.lastSleep.set('ALPHA01', at(1, 5));
    w.lastSleep.set('BETA01', at(1, 5));
    w.scheduler.start();
    w.inbox.set('ALPHA01', 3);
    w.inbox.set('BETA01', 2); // below ROLE_NAP_MIN_INBOX
    w.lastInteraction.set('ALPHA01', at(1, 12, 5));
    w.lastInteraction.set('BETA01', at(1, 9, 0));
    await w.advance(at(1, 12, 45));
    expect(w.calls).toEqual([]); // 12:40 is only 35 minutes idle
    await w.advance(at(1, 13, 30));
    expect(w.calls).toEqual([{ role: 'ALPHA01', reason: 'nap', at: '1 12:50' }]); // 45 min idle at 12:50, checked every 10
    expect(w.scheduler.state.status()).toMatchObject({ state: 'awake', lastRun: { reason: 'nap', ok: true } });
  });

  it('a role the user keeps talking to does not nap', async () => {
    const w = world({ start: at(1, 12, 0), roles: ['ALPHA01'], settings: { ROLE_NAP_ENABLED: true } });
    w.lastSleep.set('ALPHA01', at(1, 5));
    w.scheduler.start();
    w.inbox.set('ALPHA01', 9);
    for (let minute = 10; minute <= 120; minute += 10) {
      w.lastInteraction.set('ALPHA01', at(1, 12, minute - 5));
      await w.advance(at(1, 12, minute));
    }
    expect(w.calls).toEqual([]);
  });

  it('registers no nap check when ROLE_NAP_ENABLED=0', () => {
    const w = world({ start: at(1, 12, 0), settings: { ROLE_NAP_ENABLED: false } });
    w.scheduler.start();
    expect(w.fake.activeRules()).not.toContain('*/10 * * * *');
    const on = world({ start: at(1, 12, 0), settings: { ROLE_NAP_ENABLED: true, ROLE_NAP_INTERVAL_MINUTES: 15 } });
    on.scheduler.start();
    expect(on.fake.activeRules()).toContain('*/15 * * * *');
  });
});

describe('sleep scheduler: the morning brief (BRIEF-1)', () => {
  it('runs the brief for every role at the hour the window ends, once', async () => {
    const w = world({ start: at(1, 21, 0) });
    w.scheduler.start();
    await w.advance(at(2, 9, 0));
    expect(w.briefs).toEqual([
      { role: 'ALPHA01', at: '2 06:00' },
      { role: 'BETA01', at: '2 06:00' },
    ]);
  });

  it('a window ending at 06:30 briefs at 07:00; ROLE_BRIEF_ENABLED=0 never briefs', async () => {
    const w = world({ start: at(1, 21, 0), roles: ['ALPHA01'], settings: { ROLE_SLEEP_END: '06:30' } });
    w.scheduler.start();
    await w.advance(at(2, 9, 0));
    expect(w.briefs).toEqual([{ role: 'ALPHA01', at: '2 07:00' }]);
    const off = world({ start: at(1, 21, 0), settings: { ROLE_BRIEF_ENABLED: false } });
    off.scheduler.start();
    await off.advance(at(2, 9, 0));
    expect(off.briefs).toEqual([]);
  });
});

describe('sleep scheduler: catch-up (CTX-8)', () => {
  it('many SessionStarts at once make one catch-up; more requests right after are ignored', async () => {
    const w = world({ start: at(1, 14, 0), roles: ['ALPHA01'] });
    w.lastSleep.set('ALPHA01', at(0, 17, 0)); // 21 h ago
    w.inbox.set('ALPHA01', 1);
    const answers = Array.from({ length: 5 }, () => w.scheduler.requestCatchUp('ALPHA01'));
    expect(answers).toEqual(['queued', 'coalesced', 'coalesced', 'coalesced', 'coalesced']);
    await w.scheduler.idle();
    expect(w.calls).toEqual([{ role: 'ALPHA01', reason: 'catch-up', at: '1 14:00' }]);
    w.inbox.set('ALPHA01', 4);
    expect(w.scheduler.requestCatchUp('ALPHA01')).toBe('cooldown');
  });

  it('no catch-up under 20 hours, or with an empty inbox; a role never slept counts as overdue', async () => {
    const w = world({ start: at(1, 14, 0), roles: ['ALPHA01', 'BETA01', 'GAMMA01'] });
    w.lastSleep.set('ALPHA01', at(0, 19, 0)); // 19 h
    w.inbox.set('ALPHA01', 8);
    w.lastSleep.set('BETA01', at(0, 1, 0)); // 37 h, but nothing to tidy
    w.inbox.set('GAMMA01', 1); // never slept
    for (const role of ['ALPHA01', 'BETA01', 'GAMMA01']) expect(w.scheduler.requestCatchUp(role)).toBe('queued');
    await w.scheduler.idle();
    expect(w.calls).toEqual([{ role: 'GAMMA01', reason: 'catch-up', at: '1 14:00' }]);
  });

  it('start() checks every covered role once (no daemon ran at SessionStart meanwhile)', async () => {
    const w = world({ start: at(1, 14, 0) });
    w.inbox.set('ALPHA01', 2);
    w.inbox.set('BETA01', 3);
    w.scheduler.start();
    await w.scheduler.idle();
    expect(w.calls.map((c) => `${c.role}:${c.reason}`)).toEqual(['ALPHA01:catch-up', 'BETA01:catch-up']);
  });
});

describe('sleep scheduler: runs and the state', () => {
  it('a failed role puts the state in error, the next successful run clears it', async () => {
    const w = world({ start: at(1, 21, 30), roles: ['ALPHA01'] });
    w.lastSleep.set('ALPHA01', at(1, 5));
    w.scheduler.start();
    w.failNext.add('ALPHA01');
    await w.advance(at(1, 22, 30));
    expect(w.scheduler.state.status()).toMatchObject({
      state: 'error',
      lastRun: { ok: false, roles: [{ id: 'ALPHA01', error: 'planner said no' }] },
    });
    await w.advance(at(1, 23, 30));
    expect(w.scheduler.state.status()).toMatchObject({ state: 'asleep', lastRun: { ok: true } });
  });

  it('a consolidation that throws is a failed result, not a stopped schedule', async () => {
    const fake = createFakeSchedule(at(1, 21, 30));
    let calls = 0;
    const scheduler = createSleepScheduler({
      clock: fake.clock,
      timer: fake.timer,
      logger: silentLogger,
      settings: () => ({
        ROLE_SLEEP_START: '22:00',
        ROLE_SLEEP_END: '06:00',
        ROLE_NAP_ENABLED: false,
        ROLE_NAP_IDLE_MINUTES: 45,
        ROLE_NAP_MIN_INBOX: 3,
        ROLE_NAP_INTERVAL_MINUTES: 10,
        ROLE_BRIEF_ENABLED: false,
      }),
      roles: () => ['ALPHA01'],
      inboxCount: () => 0,
      lastInteraction: () => undefined,
      lastSleep: () => at(1, 5),
      assistantProcesses: () => [],
      consolidate: async () => {
        calls += 1;
        throw new Error('worker died');
      },
    });
    scheduler.start();
    await fake.advanceTo(at(1, 23, 30), () => scheduler.idle());
    expect(calls).toBe(2);
    expect(scheduler.state.status()).toMatchObject({
      state: 'error',
      lastRun: { roles: [{ id: 'ALPHA01', ok: false, error: 'worker died' }] },
    });
  });

  it('reports the next check, and stop() cancels every job', async () => {
    const w = world({ start: at(1, 14, 7), settings: { ROLE_NAP_ENABLED: true } });
    w.scheduler.start();
    expect(new Date(w.scheduler.state.status().nextCheck!).getTime()).toBe(at(1, 14, 10).getTime());
    w.scheduler.stop();
    expect(w.fake.activeRules()).toEqual([]);
    expect(w.scheduler.state.status().nextCheck).toBeNull();
    expect(w.scheduler.requestCatchUp('ALPHA01')).toBe('stopped');
  });
});
