import { parentPort, workerData } from 'node:worker_threads';
import { describeError } from '../../../../common/errors.js';
import { loadConfig } from '../../platform/config/config.js';
import { syncNow } from './sync-now.js';

/**
 * `kioku sync now` off the daemon's main thread: git runs synchronously (spawnSync), and the hook
 * socket must keep answering meanwhile. Posts one message: the run, or the error's message.
 */
const { env } = workerData as { env: NodeJS.ProcessEnv };
syncNow(loadConfig(env)).then(
  (run) => parentPort?.postMessage({ ok: true, run }),
  (error: unknown) => parentPort?.postMessage({ ok: false, error: describeError(error) }),
);
