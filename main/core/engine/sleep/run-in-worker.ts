import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { KiokuError } from '../../../../common/errors.js';
import { readLockInfo } from '../../platform/fs/file-lock.js';
import type { SleepWorkerInput, SleepWorkerMessage, WorkerRunOptions } from './sleep-worker-protocol.js';
import type { SleepProgress, SleepResult } from './sleep-result.js';

/**
 * runSleep on a worker thread for the daemon and the app, so the main thread keeps answering hooks
 * and the tray keeps drawing while a role sleeps.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/run-in-worker.ts".
 */
export interface RunInWorkerOptions {
  signal?: AbortSignal;
  onProgress?: (event: SleepProgress) => void;
  /** The worker script; default: resolveSleepWorkerFile(). */
  workerFile?: string;
  /** A module exporting createPlanner(config), instead of the ROLE_CLI choice. */
  plannerModule?: string;
  /** After an abort, how long the worker may take to stop between two batches before it is terminated. */
  abortGraceMs?: number;
}

export function resolveSleepWorkerFile(base: string | URL = import.meta.url): string {
  const tried: string[] = [];
  for (const name of ['./sleep-worker.js', './sleep-worker.mjs']) {
    const file = fileURLToPath(new URL(name, base));
    if (fs.existsSync(file)) return file;
    tried.push(file);
  }
  throw new KiokuError('NOT_FOUND', `the consolidation worker script is missing (looked for ${tried.join(' and ')})`, {
    hint: 'run `npm run build` (or reinstall Kioku); a bundle must be built with main/core/engine/sleep/sleep-worker.ts as a second entry beside it',
  });
}

export function runSleepInWorker(
  inputs: { env: NodeJS.ProcessEnv; stored?: Record<string, unknown> },
  options: WorkerRunOptions,
  extras: RunInWorkerOptions = {},
): Promise<SleepResult> {
  const workerData: SleepWorkerInput = {
    env: { ...inputs.env },
    ...(inputs.stored ? { stored: inputs.stored } : {}),
    options,
    ...(extras.plannerModule ? { plannerModule: extras.plannerModule } : {}),
  };
  const file = extras.workerFile ?? resolveSleepWorkerFile();
  return new Promise<SleepResult>((resolve, reject) => {
    const worker = new Worker(file, { workerData });
    let settled = false;
    let killer: NodeJS.Timeout | undefined;
    const finish = (done: () => void) => {
      if (settled) return;
      settled = true;
      if (killer) clearTimeout(killer);
      extras.signal?.removeEventListener('abort', onAbort);
      done();
    };
    const onAbort = () => {
      worker.postMessage({ type: 'abort', reason: String(extras.signal?.reason ?? 'stopped') });
      // A consolidation stops between batches; a planner stuck in a CLI run is cut after the grace.
      // Terminating mid-apply is what a kill -9 is: the pending plan is finished by the next run.
      killer = setTimeout(() => void worker.terminate(), extras.abortGraceMs ?? 30_000);
      killer.unref();
    };
    if (extras.signal?.aborted) onAbort();
    else extras.signal?.addEventListener('abort', onAbort, { once: true });
    // Memory locks the worker holds right now. A terminated worker runs no `finally`, and its lock
    // names this (live) process, so nobody would take it over for half an hour: free it here.
    const held = new Map<string, { file: string; since?: number }>();
    const freeHeldLocks = () => {
      for (const { file, since } of held.values()) {
        const info = readLockInfo(file);
        if (info && info.pid === process.pid && info.since === since) fs.rmSync(file, { force: true });
      }
      held.clear();
    };
    worker.on('message', (message: SleepWorkerMessage) => {
      if (message.type === 'progress') {
        const { event } = message;
        if (event.type === 'locked')
          held.set(event.role, { file: event.lockFile, ...(event.since !== undefined ? { since: event.since } : {}) });
        if (event.type === 'role-done') held.delete(event.role);
        extras.onProgress?.(event);
      } else if (message.type === 'result') finish(() => resolve(message.result));
      else if (message.type === 'error') {
        const { message: text, code, hint } = message.error;
        finish(() => reject(code ? new KiokuError(code, text, hint ? { hint } : {}) : new Error(text)));
      }
    });
    worker.on('error', (error) => finish(() => reject(new Error(`the consolidation worker failed: ${error.message}`, { cause: error }))));
    worker.on('exit', (code) => {
      freeHeldLocks();
      finish(() => reject(new Error(`the consolidation worker stopped (exit code ${code}) before reporting a result`)));
    });
  });
}
