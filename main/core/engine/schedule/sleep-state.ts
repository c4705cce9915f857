import type { SleepRoleResult, SleepRun, SleepStateName, SleepStatus } from '../../../../common/hook-protocol.js';
import { formatLocalIso, type Clock } from '../../platform/config/clock.js';
import { isInSleepWindow } from './sleep-window.js';

/**
 * The sleep state the tray (APP-1), the web UI and `kioku status` show (SLEEP-7):
 *
 *   awake          outside the sleep window, nothing running
 *   asleep         inside the window, nothing running
 *   napping        a nap consolidation is running (SLEEP-2)
 *   consolidating  a sleep or catch-up consolidation is running (SLEEP-1, CTX-8)
 *   error          the last run failed for at least one role; cleared by the next run that succeeds
 *
 * Plain data plus subscribe(). awake/asleep are derived from the clock whenever the status is
 * read, so a reader is never an hour late; subscribers hear of a window edge when refresh() is
 * called (the scheduler calls it at each edge and each check).
 */
export type RunReason = 'sleep' | 'nap' | 'catch-up';

export interface SleepWindowSettings {
  ROLE_SLEEP_START: string;
  ROLE_SLEEP_END: string;
}

export type SleepStatusListener = (status: SleepStatus) => void;

export interface SleepStateMachine {
  status(): SleepStatus;
  /** A run begins (one reason, roles consolidated one after another). */
  startRun(reason: RunReason): void;
  /** Consolidation of `role` begins within the current run. */
  startRole(role: string): void;
  /** `role` is done (ok or not). */
  endRole(result: SleepRoleResult): void;
  /** The run is over: it becomes lastRun; a failure of any role puts the state in error. */
  endRun(): void;
  /** A check that decided something without running (skipped, nothing to do). */
  noteCheck(kind: string, outcome: string): void;
  setNextCheck(at: Date | undefined): void;
  /** Re-derive awake/asleep from the clock and tell subscribers when anything changed. */
  refresh(): void;
  subscribe(listener: SleepStatusListener): () => void;
}

interface CurrentRun {
  reason: RunReason;
  startedAt: Date;
  role: string | null;
  results: SleepRoleResult[];
}

export function createSleepState(clock: Clock, window: () => SleepWindowSettings): SleepStateMachine {
  let current: CurrentRun | undefined;
  let lastRun: SleepRun | null = null;
  let failed = false;
  let nextCheck: string | null = null;
  let lastCheck: SleepStatus['lastCheck'] = null;
  const listeners = new Set<SleepStatusListener>();
  let lastEmitted = '';

  const stateName = (): SleepStateName => {
    if (current) return current.reason === 'nap' ? 'napping' : 'consolidating';
    if (failed) return 'error';
    const { ROLE_SLEEP_START, ROLE_SLEEP_END } = window();
    return isInSleepWindow(ROLE_SLEEP_START, ROLE_SLEEP_END, clock.now()) ? 'asleep' : 'awake';
  };

  const status = (): SleepStatus => ({
    state: stateName(),
    role: current?.role ?? null,
    lastRun,
    nextCheck,
    lastCheck,
  });

  const emit = () => {
    const now = status();
    const text = JSON.stringify(now);
    if (text === lastEmitted) return;
    lastEmitted = text;
    for (const listener of [...listeners]) {
      try {
        listener(now);
      } catch {
        /* a broken listener (a closed window) must not stop the schedule */
      }
    }
  };

  return {
    status,
    startRun(reason) {
      current = { reason, startedAt: clock.now(), role: null, results: [] };
      emit();
    },
    startRole(role) {
      if (!current) return;
      current.role = role;
      emit();
    },
    endRole(result) {
      if (!current) return;
      current.results.push(result);
      current.role = null;
      emit();
    },
    endRun() {
      if (!current) return;
      const ok = current.results.every((r) => r.ok);
      lastRun = {
        reason: current.reason,
        startedAt: formatLocalIso(current.startedAt),
        finishedAt: formatLocalIso(clock.now()),
        ok,
        roles: current.results,
      };
      failed = !ok;
      current = undefined;
      emit();
    },
    noteCheck(kind, outcome) {
      lastCheck = { at: formatLocalIso(clock.now()), kind, outcome };
      emit();
    },
    setNextCheck(at) {
      nextCheck = at ? formatLocalIso(at) : null;
      emit();
    },
    refresh: emit,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
