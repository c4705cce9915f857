import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { describeError, isKiokuError } from '../../../../common/errors.js';
import { loadConfig, type KiokuConfig } from '../../platform/config/config.js';
import { runSleep } from './run-sleep.js';
import type { Planner } from './sleep-plan.js';
import type { SleepWorkerInput, SleepWorkerMessage } from './sleep-worker-protocol.js';

/**
 * The worker thread's entry (ARCHITECTURE.md: "Consolidation runs off the main thread (worker
 * thread) so the tray and the socket stay responsive"). It rebuilds the config from the env it is
 * given (a Clock cannot cross threads; KIOKU_NOW in that env drives it), runs runSleep, and posts
 * progress and the result back. run-in-worker.ts is the other side.
 */
const port = parentPort;
if (!port) throw new Error('sleep-worker.js runs only as a worker thread (see run-in-worker.ts)');
const input = workerData as SleepWorkerInput;
const controller = new AbortController();
const post = (message: SleepWorkerMessage) => port.postMessage(message);

port.on('message', (message: { type?: string; reason?: string }) => {
  if (message?.type === 'abort') controller.abort(new Error(message.reason ?? 'the consolidation was stopped'));
});

/** A planner module (tests, benches): `export function createPlanner(config): Planner`. */
async function loadPlanner(config: KiokuConfig, file: string): Promise<Planner> {
  const module = (await import(pathToFileURL(file).href)) as { createPlanner?: (config: KiokuConfig) => Planner | Promise<Planner> };
  if (typeof module.createPlanner !== 'function') throw new Error(`${file} does not export createPlanner(config)`);
  return module.createPlanner(config);
}

// Consolidation is background work: on Linux the nice value is per thread, so this lowers the
// worker alone and the main thread (socket, tray) wins the CPU when the machine is busy. Elsewhere
// it would lower the whole process, so it is left alone.
if (process.platform === 'linux') {
  try {
    os.setPriority(5);
  } catch {
    /* not allowed here: run at normal priority */
  }
}

try {
  const config = loadConfig(input.env, input.stored ? { stored: input.stored } : {});
  const planner = input.plannerModule ? await loadPlanner(config, input.plannerModule) : undefined;
  const result = await runSleep(config, {
    ...input.options,
    ...(planner ? { planner } : {}),
    signal: controller.signal,
    onProgress: (event) => post({ type: 'progress', event }),
  });
  post({ type: 'result', result });
} catch (error) {
  post({
    type: 'error',
    error: isKiokuError(error)
      ? { message: error.message, code: error.code, ...(error.hint ? { hint: error.hint } : {}) }
      : { message: describeError(error) },
  });
} finally {
  port.close();
}
