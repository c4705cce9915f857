import { spawn } from 'node:child_process';
import { guardChild } from '../helpers/child-guard.js';

export interface ClientRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The real clients take 5–30 s to start, answer and run their hooks; two minutes is far beyond
 * that on a loaded 2-core machine. A safety net only (child-guard.ts): nothing asserts on time.
 */
export const CLIENT_DEADLINE_MS = 120_000;

/**
 * One headless run of a real client, as a user would type it in the project folder. stdin is
 * closed: `codex exec` and `gemini -p` otherwise wait to read more of the prompt from it.
 */
export function runClient(bin: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ClientRun> {
  const child = guardChild(spawn(bin, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] }), CLIENT_DEADLINE_MS);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      // Its output is complete once the pipes close; a grandchild that kept them open (a hook
      // left behind) must not hold the test, so the exit alone settles it a little later.
      const settle = () => resolve({ code, signal, stdout, stderr });
      const late = setTimeout(settle, 5_000);
      child.once('close', () => {
        clearTimeout(late);
        settle();
      });
    });
  });
}

/** What to show when a run did not do what the test needed: the client's own words. */
export function describeRun(run: ClientRun): string {
  return `exit ${run.code ?? run.signal}\n--- stdout ---\n${run.stdout.slice(-4000)}\n--- stderr ---\n${run.stderr.slice(-4000)}`;
}
