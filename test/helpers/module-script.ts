import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/**
 * Run an ES module script in a fresh Node (`node [flags] --input-type=module -e script args…`) and
 * give back the JSON it printed, after checking that it exited cleanly and wrote nothing to stderr.
 * A fresh process is the point: what V8 compiled, cached or tiered up is only told across processes.
 * Its deadline is a safety net (test/helpers/child-guard.ts), not a budget.
 */
export function runModuleScript<T>(script: string, args: readonly string[] = [], nodeFlags: readonly string[] = []): T {
  const run = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    killSignal: 'SIGKILL',
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as T;
}
