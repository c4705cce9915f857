import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SyncRun } from './sync-now.js';

/** Run a sync in a worker thread (sync-worker.ts); resolves with the run or rejects with its error. */
export function syncWorkerFile(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return path.join(path.dirname(here), 'sync-worker.js');
  return path.join(path.resolve(path.dirname(here), '..', '..', '..', '..'), 'dist', 'main', 'core', 'engine', 'sync', 'sync-worker.js');
}

export function runSyncInWorker(env: NodeJS.ProcessEnv, file = syncWorkerFile()): Promise<SyncRun> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { workerData: { env } });
    let settled = false;
    worker.once('message', (message: { ok: true; run: SyncRun } | { ok: false; error: string }) => {
      settled = true;
      if (message.ok) resolve(message.run);
      else reject(new Error(message.error));
    });
    worker.once('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the sync worker stopped (exit ${code}) before reporting`));
      settled = true;
    });
  });
}
