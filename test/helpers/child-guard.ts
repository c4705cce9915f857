import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, onTestFinished } from 'vitest';

/**
 * Every child process a test starts is guarded here, pass or fail:
 * - it has a deadline (a kill timer): a child that hangs is killed, and its test fails on what
 *   the child did not do, instead of hanging the suite;
 * - it is killed when the test that started it finishes (onTestFinished), or, when it was
 *   started outside a test (beforeAll), when the file's tests are done (afterAll) — so one
 *   failing test cannot leave a daemon or a socket behind for the next one;
 * - long-lived children load child-watchdog.mjs (`node --import`, see runNode in
 *   test/ipc/daemon-kit.ts) and stop themselves when the test process is gone.
 * The deadlines are safety nets, never budgets: no test asserts how long a child took.
 */

/** A hook, a CLI run, a racer: far longer than any of them takes on a loaded machine. */
export const SHORT_CHILD_DEADLINE_MS = 60_000;
/** A daemon or server that may serve a whole test file. */
export const LONG_CHILD_DEADLINE_MS = 10 * 60_000;

/** `node --import <this>` arguments that make a child stop when its test process is gone. */
export const WATCHDOG_ARGS: readonly string[] = [
  '--import',
  pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'child-watchdog.mjs')).href,
];

const fileLevel = new Set<ChildProcess>();
afterAll(async () => {
  const left = [...fileLevel];
  fileLevel.clear();
  await Promise.all(left.map(stopChild));
});

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** How long a child has to stop on SIGTERM (a daemon removes its socket and pid file) before SIGKILL. */
const STOP_GRACE_MS = 5_000;

/**
 * Stop a child and wait until it has exited: resumed first (a test may have stopped it with
 * SIGSTOP), then SIGTERM so that a daemon stops cleanly and leaves no socket behind, then
 * SIGKILL if it is still there after STOP_GRACE_MS.
 */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (hasExited(child) || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(child.pid, 'SIGCONT');
  } catch {
    /* already gone */
  }
  child.kill('SIGTERM');
  const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(kill);
}

/** Give a child its deadline and register it for the cleanup of the running test (or file). */
export function guardChild<T extends ChildProcess>(child: T, deadlineMs: number = SHORT_CHILD_DEADLINE_MS): T {
  const timer = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGCONT');
    } catch {
      /* gone */
    }
    child.kill('SIGKILL');
  }, deadlineMs);
  timer.unref();
  child.once('exit', () => clearTimeout(timer));
  try {
    onTestFinished(() => stopChild(child));
  } catch {
    // Not inside a test (beforeAll, module level): the file's afterAll stops it.
    fileLevel.add(child);
    child.once('exit', () => fileLevel.delete(child));
  }
  return child;
}
