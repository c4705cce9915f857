import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { KiokuError } from '../../../../common/errors.js';
import type { HookEventName } from '../../../../common/hook-events.js';

/** One run of the real hook client, as the assistant would see it. */
export interface HookRun {
  event: HookEventName;
  /** The hook JSON given on stdin. */
  payload: Record<string, unknown>;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  ms: number;
}

export interface HookProcessOptions {
  clientPath: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Claude Code gives SessionStart 15 s (hook-registrations.ts); a stuck client fails the demo. */
  timeoutMs?: number;
}

export function checkHookClient(clientPath: string): void {
  if (fs.existsSync(clientPath)) return;
  throw new KiokuError('NOT_FOUND', `the hook client ${clientPath} does not exist`, {
    hint: 'build Kioku first (`npm run build` in the repo), or reinstall it',
    path: clientPath,
  });
}

/**
 * `node <client> <event> --assistant claude` with the payload on stdin: the same command line
 * the installed hooks run (hook-registrations.ts), so the demo exercises the real path — socket
 * attempt, fallback to the files, spool — and not an in-process shortcut.
 */
export function runHookProcess(event: HookEventName, payload: Record<string, unknown>, options: HookProcessOptions): Promise<HookRun> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 15_000;
  // Inside a packaged app process.execPath is Electron; this makes it behave as plain Node.
  const env = process.versions.electron ? { ...options.env, ELECTRON_RUN_AS_NODE: '1' } : options.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.clientPath, event, '--assistant', 'claude'], {
      env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(
        new KiokuError('IO', `could not start the hook client for ${event}: ${error.message}`, {
          hint: `check that ${process.execPath} can run`,
          cause: error,
        }),
      );
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut) {
        reject(
          new KiokuError('IO', `the hook client did not finish ${event} within ${timeoutMs / 1000} s`, {
            hint: stderr.trim() || 'run again with KIOKU_DEBUG=1',
          }),
        );
        return;
      }
      resolve({ event, payload, stdout: Buffer.concat(out).toString('utf8'), stderr, exitCode, ms: Date.now() - started });
    });
    // A client that exits before reading stdin closes the pipe; its exit code tells the story.
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}
