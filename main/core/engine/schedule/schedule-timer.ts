import schedule from 'node-schedule';

/**
 * The scheduler's only contact with real time passing. Production uses node-schedule (cron rules
 * in local time, like the crontab entries of seed 000 §--install-cron); tests inject a fake they
 * advance minute by minute (test/helpers/fake-schedule.ts), so no test waits on a wall clock.
 */
export interface TimerJob {
  cancel(): void;
  /** When the job fires next; undefined when it never will. */
  nextRun(): Date | undefined;
}

export interface ScheduleTimer {
  /** Run `run` at every minute matching a five-field cron rule (minute hour day month weekday). */
  cron(rule: string, run: () => void): TimerJob;
}

function toDate(value: unknown): Date | undefined {
  if (value === null || value === undefined) return undefined;
  // node-schedule hands back cron-parser's CronDate for cron rules, a Date otherwise.
  const candidate = value as { toDate?: () => Date; getTime?: () => number };
  if (typeof candidate.toDate === 'function') return candidate.toDate();
  if (typeof candidate.getTime === 'function') return new Date(candidate.getTime());
  return undefined;
}

export function nodeScheduleTimer(): ScheduleTimer {
  return {
    cron(rule, run) {
      const job = schedule.scheduleJob(rule, () => run());
      return {
        cancel: () => void job.cancel(),
        nextRun: () => toDate(job.nextInvocation()),
      };
    },
  };
}
