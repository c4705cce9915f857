import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from '../../../../test/helpers/bundle-entry.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeInbox } from '../../../../test/sleep/sleep-fixtures.js';
import { KiokuError } from '../../../../common/errors.js';
import { resolveSleepWorkerFile, runSleepInWorker } from './run-in-worker.js';
import type { SleepProgress } from './sleep-result.js';

/** The worker runs from a bundle here: vitest runs TypeScript, which a worker thread cannot load. */
let workerFile: string;
let plannerModule: string;
let home: TempHome;
beforeAll(() => {
  workerFile = bundleEntry('main/core/engine/sleep/sleep-worker.ts');
  plannerModule = bundleEntry('test/sleep/scripted-planner-module.ts');
});
afterEach(() => home?.cleanup());

function setup(extra: NodeJS.ProcessEnv = {}) {
  home = makeTempHome({ KIOKU_NOW: '2026-11-30T14:00:00', ...extra });
  for (let n = 0; n < 6; n++)
    writeInbox(home.memoryHome, { id: `I${n}`, body: `第 ${n} 件事。記號-${n}。`, created: `2026-11-29T10:0${n}:00+08:00` });
}

describe('runSleepInWorker', () => {
  it('consolidates on a worker thread and reports progress and the CLI.md result', async () => {
    setup();
    const events: SleepProgress[] = [];
    const result = await runSleepInWorker(
      { env: home.env },
      { reason: 'manual', role: ROLE, force: true },
      { workerFile, plannerModule, onProgress: (e) => void events.push(e) },
    );
    expect(result.roles).toHaveLength(1);
    expect(result.roles[0]).toMatchObject({ id: ROLE, ok: true, processed: 6, left: 0, planner: 'scripted' });
    expect(fs.readdirSync(path.join(home.memoryHome, ROLE, 'inbox'))).toEqual([]);
    expect(events.map((e) => e.type).slice(0, 2)).toEqual(['locked', 'role-start']);
    expect(events[1]).toMatchObject({ type: 'role-start', role: ROLE, inbox: 6 });
    expect(events.at(-1)).toMatchObject({ type: 'role-done', role: ROLE });
  });

  it('the clock comes from the env it is given: outside the sleep window without force nothing runs', async () => {
    setup();
    const result = await runSleepInWorker({ env: home.env }, { reason: 'manual', role: ROLE }, { workerFile, plannerModule });
    expect(result).toEqual({ roles: [], awake: true });
    expect(fs.readdirSync(path.join(home.memoryHome, ROLE, 'inbox'))).toHaveLength(6);
  });

  it('an abort stops the run between batches and leaves the inbox for the next one', async () => {
    setup({ TEST_PLANNER: 'hang' });
    const controller = new AbortController();
    const result = await runSleepInWorker(
      { env: home.env },
      { reason: 'manual', role: ROLE, force: true },
      {
        workerFile,
        plannerModule,
        signal: controller.signal,
        onProgress: (e) => e.type === 'batch-start' && controller.abort('shutting down'),
      },
    );
    expect(result.roles[0]).toMatchObject({ ok: false, processed: 0, left: 6 });
    expect(result.roles[0]!.error).toMatch(/stopped before the inbox was done/);
  });

  it('a worker stuck past the grace is terminated, and the memory lock it held is freed', async () => {
    setup({ TEST_PLANNER: 'block' });
    const controller = new AbortController();
    const lockFile = path.join(home.memoryHome, ROLE, '.memory.lock');
    let sawLock = false;
    const run = runSleepInWorker(
      { env: home.env },
      { reason: 'manual', role: ROLE, force: true },
      {
        workerFile,
        plannerModule,
        signal: controller.signal,
        abortGraceMs: 200,
        onProgress: (e) => {
          if (e.type === 'locked') sawLock = fs.existsSync(lockFile);
          if (e.type === 'batch-start') controller.abort('shutting down');
        },
      },
    );
    await expect(run).rejects.toThrow(/stopped \(exit code \d+\) before reporting a result/);
    expect(sawLock).toBe(true);
    expect(fs.existsSync(lockFile)).toBe(false);
    expect(fs.readdirSync(path.join(home.memoryHome, ROLE, 'inbox'))).toHaveLength(6);
  });

  it('reports a worker-side failure as an error, and a missing worker script with what to do', async () => {
    setup();
    const notAPlanner = path.join(home.root, 'not-a-planner.mjs');
    fs.writeFileSync(notAPlanner, 'export const nothing = 1;\n');
    await expect(
      runSleepInWorker({ env: home.env }, { reason: 'manual', role: ROLE, force: true }, { workerFile, plannerModule: notAPlanner }),
    ).rejects.toThrow(/does not export createPlanner/);

    const dir = path.join(home.root, 'bundle');
    fs.mkdirSync(dir);
    const base = pathToFileURL(path.join(dir, 'kioku-cli.mjs'));
    expect(() => resolveSleepWorkerFile(base)).toThrow(KiokuError);
    fs.writeFileSync(path.join(dir, 'sleep-worker.mjs'), '');
    expect(resolveSleepWorkerFile(base)).toBe(path.join(dir, 'sleep-worker.mjs'));
  });
});
