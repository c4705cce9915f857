import { spawn, type ChildProcess } from 'node:child_process';
import type { DaemonStatus } from '../../common/hook-protocol.js';
import { requestStatus, type IpcEndpoint } from '../../main/core/platform/ipc/ipc-client.js';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { guardChild, LONG_CHILD_DEADLINE_MS, WATCHDOG_ARGS } from '../helpers/child-guard.js';
import type { TempHome } from '../helpers/temp-home.js';

/** Real processes for the IPC tests: the test daemon, waits on observable state, never on time. */
export interface ChildRun {
  child: ChildProcess;
  pid: number;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): { stdout: string; stderr: string };
  isRunning(): boolean;
}

const bundles = new Map<string, string>();
export function bundled(entry: string): string {
  let file = bundles.get(entry);
  if (!file) bundles.set(entry, (file = bundleEntry(entry)));
  return file;
}

/**
 * A bundled entry as a real child process. It is guarded (test/helpers/child-guard.ts): killed
 * at the end of the test that started it (of the file, when started in beforeAll), killed at its
 * deadline, and it stops itself if the test process goes away.
 */
export function runNode(entry: string, args: string[], env: NodeJS.ProcessEnv, options: { deadlineMs?: number } = {}): ChildRun {
  return runNodeArgs([bundled(entry), ...args], env, options);
}

/** runNode with Node's own arguments as given (flags, then a script that needs no bundling, such as bin/kioku.js). */
export function runNodeArgs(nodeArgs: string[], env: NodeJS.ProcessEnv, options: { deadlineMs?: number } = {}): ChildRun {
  const child = guardChild(
    spawn(process.execPath, [...WATCHDOG_ARGS, ...nodeArgs], { env, stdio: ['ignore', 'pipe', 'pipe'] }),
    options.deadlineMs ?? LONG_CHILD_DEADLINE_MS,
  );
  let stdout = '';
  let stderr = '';
  let running = true;
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      running = false;
      resolve({ code, signal });
    }),
  );
  return { child, pid: child.pid!, exited, output: () => ({ stdout, stderr }), isRunning: () => running };
}

export function spawnDaemon(home: TempHome, env: NodeJS.ProcessEnv = {}, args: string[] = []): ChildRun {
  return runNode('test/ipc/fixtures/test-daemon.ts', args, { ...home.env, ...env });
}

export function endpointOf(home: TempHome): IpcEndpoint {
  return home.config().paths;
}

/** Poll a condition (20 ms apart) until it yields a value; fail with `what` after timeoutMs. */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The daemon's own word that it is ready: a status reply from this very process saying so. */
export async function waitReady(home: TempHome, daemon: ChildRun, timeoutMs?: number): Promise<DaemonStatus> {
  return waitFor(
    async () => {
      if (!daemon.isRunning()) throw new Error(`daemon ${daemon.pid} exited before it was ready: ${daemon.output().stderr}`);
      const result = await requestStatus(endpointOf(home), 1_000);
      return result.ok && result.reply.status.pid === daemon.pid && result.reply.status.ready ? result.reply.status : undefined;
    },
    `daemon ${daemon.pid} to report ready`,
    timeoutMs,
  );
}

/** Ready, nothing left in the spool, and the capture queue idle. */
export async function waitDrained(home: TempHome, daemon: ChildRun, timeoutMs?: number): Promise<DaemonStatus> {
  return waitFor(
    async () => {
      const result = await requestStatus(endpointOf(home), 1_000);
      if (!result.ok || result.reply.status.pid !== daemon.pid) return undefined;
      const { status } = result.reply;
      return status.ready && status.spoolPending === 0 && !status.queue.busy ? status : undefined;
    },
    `daemon ${daemon.pid} to drain the spool`,
    timeoutMs,
  );
}

/**
 * Stop a child and wait for its exit. A stopped (SIGSTOP) child is resumed first, or a SIGTERM
 * would wait forever; a child that has not exited KILL_GRACE_MS after a gentler signal is killed.
 */
const KILL_GRACE_MS = 10_000;
export async function killAndWait(run: ChildRun, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!run.isRunning()) return;
  try {
    process.kill(run.pid, 'SIGCONT');
  } catch {
    /* gone */
  }
  run.child.kill(signal);
  const grace = signal === 'SIGKILL' ? undefined : setTimeout(() => run.child.kill('SIGKILL'), KILL_GRACE_MS);
  await run.exited;
  if (grace) clearTimeout(grace);
}
