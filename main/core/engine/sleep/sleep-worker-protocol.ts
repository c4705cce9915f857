import type { KiokuErrorCode } from '../../../../common/errors.js';
import type { RunSleepOptions } from './run-sleep.js';
import type { SleepProgress, SleepResult } from './sleep-result.js';

/** What crosses the thread boundary between run-in-worker.ts and sleep-worker.ts (structured clone only). */
export type WorkerRunOptions = Omit<RunSleepOptions, 'planner' | 'signal' | 'onProgress'>;

export interface SleepWorkerInput {
  /** The environment the config is built from (ROLE_*, KIOKU_NOW, PATH for the CLI planners). */
  env: Record<string, string | undefined>;
  /** Settings to use instead of reading settings.json (the Electron store). */
  stored?: Record<string, unknown>;
  options: WorkerRunOptions;
  /** A module exporting createPlanner(config) to use instead of ROLE_CLI's choice (tests, benches). */
  plannerModule?: string;
}

export type SleepWorkerMessage =
  | { type: 'progress'; event: SleepProgress }
  | { type: 'result'; result: SleepResult }
  | { type: 'error'; error: { message: string; code?: KiokuErrorCode; hint?: string } };
