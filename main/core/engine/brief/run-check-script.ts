import { spawn } from 'node:child_process';

/**
 * Run one check script of the morning brief with a time limit (seed 000 §--brief: 每個腳本受
 * `ROLE_BRIEF_TIMEOUT` 限制). The script gets its own process group, so on timeout the whole group
 * is killed — a script's `curl` or `sleep` must not outlive it and pile up every morning.
 * stdout is the report; stderr is kept apart for the log. Both are capped while reading so a
 * script that prints without end cannot fill the memory of the process.
 */
export interface CheckRun {
  stdout: string;
  stderr: string;
  /** The exit code, or null when the script was killed or could not start. */
  exitCode: number | null;
  timedOut: boolean;
  /** Set when the script could not be started at all (spawn error). */
  startError?: string;
}

export interface CheckRunOptions {
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Characters kept from each stream; more is read and dropped. */
  keepChars: number;
}

/** After the group is killed, how long to wait for the pipes to close before giving up on them. */
const CLOSE_GRACE_MS = 2_000;

class CappedText {
  private text = '';
  private readonly decoder = new TextDecoder('utf-8');
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    if (this.text.length >= this.cap) return;
    this.text += this.decoder.decode(chunk, { stream: true });
  }
  value(): string {
    return (this.text + this.decoder.decode()).slice(0, this.cap);
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    // A negative pid is the process group (POSIX); Windows has none, so kill the process only.
    if (process.platform === 'win32') process.kill(pid, 'SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

export function runCheckScript(file: string, options: CheckRunOptions): Promise<CheckRun> {
  return new Promise((resolve) => {
    const stdout = new CappedText(options.keepChars);
    const stderr = new CappedText(options.keepChars);
    let timedOut = false;
    let settled = false;
    let exitCode: number | null = null;
    let exited = false;
    let grace: NodeJS.Timeout | undefined;
    const child = spawn(file, [], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const finish = (extra: Partial<CheckRun> = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      resolve({ stdout: stdout.value(), stderr: stderr.value(), exitCode, timedOut, ...extra });
    };
    const timer = setTimeout(() => {
      if (exited) return; // only its leftovers are still running; the exit grace handles them
      timedOut = true;
      killGroup(child.pid);
      // A grandchild that left the group (setsid) may still hold the pipes open: stop waiting.
      grace = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, CLOSE_GRACE_MS);
    }, options.timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => finish({ startError: error.message }));
    child.on('exit', (code) => {
      exited = true;
      exitCode = code;
      // The script is done but something it started in the background still holds the pipes:
      // that leftover belongs to the script's group and goes with it.
      grace ??= setTimeout(() => {
        killGroup(child.pid);
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, CLOSE_GRACE_MS);
    });
    // 'close' comes after both pipes are drained, so no output is lost.
    child.on('close', (code) => {
      if (exitCode === null) exitCode = code;
      finish();
    });
  });
}
