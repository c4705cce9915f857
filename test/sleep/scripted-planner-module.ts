import type { KiokuConfig } from '../../main/core/platform/config/config.js';
import type { Planner } from '../../main/core/engine/sleep/sleep-plan.js';
import { scriptedPlanner } from './sleep-fixtures.js';

/**
 * A planner module for the worker thread and child processes (run-in-worker.ts `plannerModule`):
 * the scripted planner; with TEST_PLANNER=hang one that answers only by failing when aborted; with
 * TEST_PLANNER=block one that blocks its thread.
 */
export function createPlanner(config: KiokuConfig): Planner {
  if (config.env.TEST_PLANNER === 'block') {
    // Blocks the thread itself, as a planner stuck in synchronous work would: only terminate() stops it.
    return {
      name: 'block',
      plan: () => (Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000), Promise.reject(new Error('unblocked'))),
    };
  }
  if (config.env.TEST_PLANNER === 'hang') {
    return {
      name: 'hang',
      plan: (_batch, _id, signal) =>
        new Promise((_, reject) =>
          signal?.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), {
            once: true,
          }),
        ),
    };
  }
  return scriptedPlanner();
}
