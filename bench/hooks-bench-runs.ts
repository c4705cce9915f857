import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { KiokuConfig } from '../main/core/platform/config/config.js';
import { requestStatus } from '../main/core/platform/ipc/ipc-client.js';
import type { Sample } from './hooks-bench-report.js';
import { runNodeChild } from './node-child.js';

/**
 * How the hooks bench (hooks-bench.ts) times one hook process, and what it waits for between two
 * with the daemon up: every timed run starts as the one before it left the machine.
 */

async function spawnTimed(args: string[], stdin: string, env: NodeJS.ProcessEnv): Promise<Sample> {
  const { ms, code, stdout, stderr } = await runNodeChild(args, stdin, env);
  return { ms, code, stdout, stderr };
}

/**
 * A timed run right after an untimed `node -e 0`, every timed run alike (session 22). Rows that
 * came after a long wait for the daemon (a write to disk 2.2 s after a change) ran on a machine
 * gone idle: the whole process, `node -e 0`'s part included, about 1.4× slower (a Stop's marks
 * all late from its first, 28–30 ms against 19–21), while `node -e 0` itself ran right after
 * other processes. Each run now starts as every run did before such waits: after another process.
 */
export async function spawnTimedWarm(args: string[], stdin: string, env: NodeJS.ProcessEnv): Promise<Sample> {
  await spawnTimed(['-e', '0'], '', env);
  return spawnTimed(args, stdin, env);
}

async function waitUntil<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`hooks bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The daemon has nothing in hand: answered, spooled and captured events all done, and no work it
 * set itself pending — the next load it prepares after a memory file changed, and writes to disk
 * two seconds later (load-warmer.ts) — and what it wrote is on disk (`sync`). A person's hooks
 * come seconds apart; the bench's come milliseconds apart. Without this, the rows after an edit
 * or a capture ran while the daemon prepared a load on the same two cores, or while the kernel
 * wrote the load it had just saved: a Stop's spool fsync then waited for those megabytes (ext4
 * writes a file replaced by rename before the next journal commit), 30 ms more (session 22).
 */
export async function waitIdle(config: KiokuConfig, pid: number, env: NodeJS.ProcessEnv): Promise<void> {
  const started = performance.now();
  await waitUntil(async () => {
    const result = await requestStatus(config.paths, 2_000);
    if (!result.ok || result.reply.status.pid !== pid) return undefined;
    const { status } = result.reply;
    return status.ready && status.spoolPending === 0 && !status.queue.busy && !status.background ? true : undefined;
  }, `daemon ${pid} to be ready and idle`);
  spawnSync('sync', { stdio: 'ignore', timeout: 30_000 });
  // After a wait of seconds the machine has gone idle, and the next process runs slower from its
  // first instruction (spawnTimedWarm): a few processes first, as rows that come one after another have.
  if (performance.now() - started > 200)
    for (let i = 0; i < 3; i++) spawnSync(process.execPath, ['-e', '0'], { env, stdio: 'ignore', timeout: 30_000 });
}
