import { describeError } from '../../../../common/errors.js';
import type { SleepRoleResult } from '../../../../common/hook-protocol.js';
import { formatLocalDate, type Clock } from '../../platform/config/clock.js';
import type { Logger } from '../../platform/config/log.js';
import type { ScheduleTimer, TimerJob } from './schedule-timer.js';
import { createSleepState, type RunReason, type SleepStateMachine } from './sleep-state.js';
import { isInSleepWindow } from './sleep-window.js';

/**
 * The sleep schedule inside the app or `kioku daemon` (SLEEP-1, SLEEP-2, SLEEP-3, BRIEF-1).
 * Design notes: docs/design-notes.md, "main/core/engine/schedule/sleep-scheduler.ts".
 */
export const CATCH_UP_AFTER_HOURS = 20;
/** After a catch-up ran for a role, more requests for it are ignored this long (a failing planner must not be retried on every SessionStart). */
export const CATCH_UP_COOLDOWN_MINUTES = 60;

export interface SchedulerSettings {
  ROLE_SLEEP_START: string;
  ROLE_SLEEP_END: string;
  ROLE_NAP_ENABLED: boolean;
  ROLE_NAP_IDLE_MINUTES: number;
  ROLE_NAP_MIN_INBOX: number;
  ROLE_NAP_INTERVAL_MINUTES: number;
  ROLE_BRIEF_ENABLED: boolean;
}

export interface SleepSchedulerDeps {
  clock: Clock;
  timer: ScheduleTimer;
  logger: Logger;
  /** Read at every check, so edited settings apply without a restart (the nap interval excepted). */
  settings(): SchedulerSettings;
  /** The roles the schedule serves (SLEEP-3: every role, or the active one with ROLE_SLEEP_ALL_ROLES=0). */
  roles(): string[];
  inboxCount(role: string): number;
  lastInteraction(role: string): Date | undefined;
  lastSleep(role: string): Date | undefined;
  /** Descriptions of running assistant CLIs (empty: none). */
  assistantProcesses(): string[];
  /** One role's consolidation, off the main thread in production (run-in-worker.ts). */
  consolidate(role: string, reason: RunReason): Promise<SleepRoleResult>;
  /** BRIEF-1 for one role; absent: no brief on this host. */
  runBrief?(role: string): Promise<void>;
}

export type CatchUpRequest = 'queued' | 'coalesced' | 'cooldown' | 'stopped';

export interface SleepScheduler {
  readonly state: SleepStateMachine;
  /** Register the timer jobs and check every covered role for a catch-up once. */
  start(): void;
  /** Cancel the jobs and drop what is queued; the run in hand finishes (crash-safe anyway). */
  stop(): void;
  requestCatchUp(role: string): CatchUpRequest;
  /** The hourly and nap checks, as the timer fires them (exposed for the app's "sleep now"/"nap now"). */
  hourlyCheck(): void;
  napCheck(): void;
  /** Resolves once nothing is queued or running (tests, a clean shutdown). */
  idle(): Promise<void>;
}

function failedResult(role: string, error: unknown): SleepRoleResult {
  return { id: role, ok: false, processed: 0, created: 0, merged: 0, discarded: 0, forgotten: 0, left: 0, error: describeError(error) };
}

export function createSleepScheduler(deps: SleepSchedulerDeps): SleepScheduler {
  const { clock, timer, logger } = deps;
  const state = createSleepState(clock, () => deps.settings());
  const jobs: TimerJob[] = [];
  const queued = new Set<string>();
  const lastCatchUp = new Map<string, number>();
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  let lastBriefDay: string | undefined;

  const updateNextCheck = () => {
    const times = jobs.map((job) => job.nextRun()).filter((at): at is Date => at !== undefined);
    state.setNextCheck(times.length ? new Date(Math.min(...times.map((t) => t.getTime()))) : undefined);
  };

  /** Queue `task` under `key` unless a task with that key is already waiting or running. */
  const enqueue = (key: string, task: () => Promise<void>): boolean => {
    if (stopped || queued.has(key)) return false;
    queued.add(key);
    chain = chain
      // Start on a later turn of the event loop: a SessionStart reply is written before any work.
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => (stopped ? undefined : task()))
      .catch((error: unknown) => logger.error('schedule', `${key}: ${describeError(error)}`))
      .finally(() => {
        queued.delete(key);
        updateNextCheck();
      });
    return true;
  };

  const run = async (reason: RunReason, roles: readonly string[]) => {
    state.startRun(reason);
    try {
      for (const role of roles) {
        if (stopped) break;
        state.startRole(role);
        let result: SleepRoleResult;
        try {
          result = await deps.consolidate(role, reason);
        } catch (error) {
          result = failedResult(role, error);
        }
        if (!result.ok) logger.warn('schedule', `${reason} ${role} failed: ${result.error ?? 'no reason given'}`);
        else
          logger.info(
            'schedule',
            `${reason} ${role}: ${result.processed} processed, ${result.created} created, ${result.merged} merged, ${result.left} left`,
          );
        state.endRole(result);
      }
    } finally {
      state.endRun();
    }
  };

  const inWindow = (at: Date) => {
    const s = deps.settings();
    return isInSleepWindow(s.ROLE_SLEEP_START, s.ROLE_SLEEP_END, at);
  };

  const hourly = async () => {
    state.refresh();
    const now = clock.now();
    const settings = deps.settings();
    if (!inWindow(now)) {
      const anHourAgo = new Date(now.getTime() - 60 * 60_000);
      const today = formatLocalDate(now);
      if (inWindow(anHourAgo) && settings.ROLE_BRIEF_ENABLED && deps.runBrief && lastBriefDay !== today) {
        lastBriefDay = today;
        for (const role of deps.roles()) {
          if (stopped) break;
          try {
            await deps.runBrief(role);
          } catch (error) {
            logger.warn('brief', `${role}: ${describeError(error)}`);
          }
        }
        state.noteCheck('brief', 'ran the morning brief');
      }
      return;
    }
    const running = deps.assistantProcesses();
    if (running.length > 0) {
      // SLEEP-1: an assistant is running, so no sleep now; try again next hour.
      logger.info('schedule', `sleep skipped this hour: an assistant is running (${running.slice(0, 3).join('; ')})`);
      state.noteCheck('sleep', `skipped: an AI assistant is running (${running.length})`);
      return;
    }
    const roles = deps.roles();
    if (roles.length === 0) {
      state.noteCheck('sleep', 'no roles to consolidate');
      return;
    }
    await run('sleep', roles);
  };

  const nap = async () => {
    state.refresh();
    const settings = deps.settings();
    if (!settings.ROLE_NAP_ENABLED) return;
    const now = clock.now().getTime();
    const idleMs = settings.ROLE_NAP_IDLE_MINUTES * 60_000;
    const ready = deps.roles().filter((role) => {
      if (deps.inboxCount(role) < settings.ROLE_NAP_MIN_INBOX) return false;
      const last = deps.lastInteraction(role);
      return !last || now - last.getTime() >= idleMs;
    });
    if (ready.length === 0) return;
    await run('nap', ready);
  };

  const catchUp = async (role: string) => {
    const last = deps.lastSleep(role);
    const hours = last ? (clock.now().getTime() - last.getTime()) / 3_600_000 : Infinity;
    if (hours < CATCH_UP_AFTER_HOURS || deps.inboxCount(role) === 0) return;
    lastCatchUp.set(role, clock.now().getTime());
    await run('catch-up', [role]);
  };

  const requestCatchUp = (role: string): CatchUpRequest => {
    if (stopped) return 'stopped';
    const ranAt = lastCatchUp.get(role);
    if (ranAt !== undefined && clock.now().getTime() - ranAt < CATCH_UP_COOLDOWN_MINUTES * 60_000) return 'cooldown';
    return enqueue(`catch-up:${role}`, () => catchUp(role)) ? 'queued' : 'coalesced';
  };

  return {
    state,
    start() {
      if (stopped || jobs.length) return;
      const settings = deps.settings();
      jobs.push(timer.cron('0 * * * *', () => void enqueue('hourly', hourly)));
      if (settings.ROLE_NAP_ENABLED) {
        jobs.push(timer.cron(`*/${settings.ROLE_NAP_INTERVAL_MINUTES} * * * *`, () => void enqueue('nap', nap)));
      }
      // The window's edges, so the tray turns awake/asleep on the minute, not at the next check.
      for (const edge of [settings.ROLE_SLEEP_START, settings.ROLE_SLEEP_END]) {
        const [h, m] = edge.split(':').map(Number);
        jobs.push(
          timer.cron(`${m ?? 0} ${h ?? 0} * * *`, () => {
            state.refresh();
            updateNextCheck();
          }),
        );
      }
      updateNextCheck();
      state.refresh();
      // CTX-8 with no daemon: SessionStarts in fallback trigger nothing, so a start checks all once.
      for (const role of deps.roles()) requestCatchUp(role);
    },
    stop() {
      stopped = true;
      for (const job of jobs.splice(0)) job.cancel();
      updateNextCheck();
    },
    requestCatchUp,
    hourlyCheck: () => void enqueue('hourly', hourly),
    napCheck: () => void enqueue('nap', nap),
    async idle() {
      // A task may queue another meanwhile: wait until the chain stops growing.
      for (let seen: Promise<void> | undefined; seen !== chain;) {
        seen = chain;
        await chain;
      }
    },
  };
}
