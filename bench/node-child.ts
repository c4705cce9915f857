import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** What one `node` child of a bench did: its wall time from spawn to close, its exit and its output. */
export interface NodeChildRun {
  ms: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * `node <args>` with `stdin` written and closed, as an assistant starts a hook; its output
 * collected. Killed after `deadlineMs`, so a hung child never outlives its bench. Rejects only
 * when it cannot be started.
 */
export function runNodeChild(args: readonly string[], stdin: string, env: NodeJS.ProcessEnv, deadlineMs = 30_000): Promise<NodeChildRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.on('error', () => undefined);
    const killer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      const ms = performance.now() - started;
      resolve({ ms, code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(stdin);
  });
}
