import type { Clock } from '../../main/core/platform/config/clock.js';
import type { ScheduleTimer, TimerJob } from '../../main/core/engine/schedule/schedule-timer.js';

/**
 * A clock and a cron timer the test drives: `advanceTo` walks the clock minute by minute and fires
 * every job whose rule matches that minute, then lets the test settle (await the scheduler) before
 * the next minute — time never moves on its own, so no test depends on how fast the machine is.
 * Understands the rules the scheduler uses: minute and hour fields of `N`, `*` or `*\/N`, the
 * other three `*`.
 */
export interface FakeSchedule {
  clock: Clock;
  timer: ScheduleTimer;
  now(): Date;
  /** Move to `to`, firing due jobs at each whole minute after the current time, up to and including `to`. */
  advanceTo(to: Date, settle?: () => Promise<void>): Promise<void>;
  /** Jobs not cancelled. */
  activeRules(): string[];
}

function fieldMatches(field: string, value: number): boolean {
  if (field === '*') return true;
  const every = /^\*\/(\d+)$/.exec(field);
  if (every) return value % Number(every[1]) === 0;
  if (/^\d+$/.test(field)) return Number(field) === value;
  throw new Error(`fake schedule: unsupported cron field "${field}"`);
}

export function cronMatches(rule: string, at: Date): boolean {
  const [minute, hour, ...rest] = rule.trim().split(/\s+/);
  if (!minute || !hour || rest.length !== 3 || rest.some((f) => f !== '*'))
    throw new Error(`fake schedule: unsupported cron rule "${rule}"`);
  return fieldMatches(minute, at.getMinutes()) && fieldMatches(hour, at.getHours());
}

export function createFakeSchedule(start: Date): FakeSchedule {
  let now = new Date(start.getTime());
  const jobs: Array<{ rule: string; run: () => void; cancelled: boolean }> = [];
  const nextMatch = (rule: string): Date | undefined => {
    const t = new Date(now.getTime());
    t.setSeconds(0, 0);
    for (let i = 0; i < 2 * 24 * 60; i++) {
      t.setMinutes(t.getMinutes() + 1);
      if (cronMatches(rule, t)) return new Date(t.getTime());
    }
    return undefined;
  };
  const timer: ScheduleTimer = {
    cron(rule, run) {
      cronMatches(rule, now); // reject what the fake cannot play
      const job = { rule, run, cancelled: false };
      jobs.push(job);
      const handle: TimerJob = { cancel: () => void (job.cancelled = true), nextRun: () => (job.cancelled ? undefined : nextMatch(rule)) };
      return handle;
    },
  };
  return {
    clock: { now: () => new Date(now.getTime()) },
    timer,
    now: () => new Date(now.getTime()),
    async advanceTo(to, settle) {
      const t = new Date(now.getTime());
      t.setSeconds(0, 0);
      for (;;) {
        t.setMinutes(t.getMinutes() + 1);
        if (t > to) break;
        now = new Date(t.getTime());
        for (const job of jobs) if (!job.cancelled && cronMatches(job.rule, now)) job.run();
        if (settle) await settle();
      }
      now = new Date(to.getTime());
    },
    activeRules: () => jobs.filter((j) => !j.cancelled).map((j) => j.rule),
  };
}
