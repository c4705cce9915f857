import { spawn } from 'node:child_process';

/**
 * One headless CLI run: no shell, stdin closed, a hard timeout, stdout/stderr collected up to a
 * cap. Resolves always — a spawn error, a timeout or an abort is a field of the result, never a
 * rejection — so the caller decides what each one means.
 *
 * On POSIX the child leads its own process group and the whole group is killed: CLIs are
 * usually Node scripts that start helpers, and a helper left behind holding stdout open would
 * keep the run "alive" long past its timeout.
 */
export interface HeadlessRun {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes kept per stream; the rest is dropped (an answer is a few KB). */
  maxBytes?: number;
}

export interface HeadlessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  spawnError?: string;
}

function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') process.kill(pid, 'SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

export function runHeadless(run: HeadlessRun): Promise<HeadlessResult> {
  const maxBytes = run.maxBytes ?? 1_000_000;
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let settled = false;
    let timedOut = false;
    let aborted = false;
    const finish = (code: number | null, spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
        aborted,
        ...(spawnError ? { spawnError } : {}),
      });
    };
    const child = spawn(run.command, run.args, {
      cwd: run.cwd,
      env: run.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      detached: process.platform !== 'win32',
    });
    // Stop waiting at once on timeout/abort: 'close' may never come while a grandchild holds a pipe.
    const stop = (why: 'timeout' | 'abort') => {
      if (why === 'timeout') timedOut = true;
      else aborted = true;
      killTree(child.pid);
      finish(null);
    };
    const onAbort = () => stop('abort');
    const timer = setTimeout(() => stop('timeout'), run.timeoutMs);
    if (run.signal?.aborted) onAbort();
    else run.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (chunk: Buffer) => {
      if (outBytes < maxBytes) out.push(chunk.subarray(0, maxBytes - outBytes));
      outBytes += chunk.length;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (errBytes < maxBytes) err.push(chunk.subarray(0, maxBytes - errBytes));
      errBytes += chunk.length;
    });
    child.on('error', (error) => finish(null, error.message));
    child.on('close', (code) => finish(code));
  });
}
