import { spawnSync } from 'node:child_process';
import { KiokuError } from '../../../../common/errors.js';

/**
 * The one place Kioku runs the system `git` (X-SYNC). Plain `git` rather than isomorphic-git:
 * the user's own remotes, ssh keys and credential helpers then work as they do in a terminal,
 * and merge drivers (which isomorphic-git lacks) are git's own. Every call has a deadline, never
 * asks on the terminal (GIT_TERMINAL_PROMPT=0) and quotes paths as UTF-8 (CJK file names).
 */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  env: NodeJS.ProcessEnv;
  /** Default 60 s; network commands get longer (NETWORK_TIMEOUT_MS). */
  timeoutMs?: number;
  input?: string;
}

export const NETWORK_TIMEOUT_MS = 120_000;

const FIXED_CONFIG = [
  '-c',
  'core.quotePath=false',
  '-c',
  'commit.gpgSign=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'advice.detachedHead=false',
];

export function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: env.GIT_ASKPASS ?? '', LC_ALL: 'C', GIT_MERGE_AUTOEDIT: 'no' };
}

/** Run git in `cwd`; never throws for a non-zero exit (the caller decides), throws when git is missing. */
export function git(cwd: string, args: readonly string[], options: GitOptions): GitResult {
  const result = spawnSync('git', [...FIXED_CONFIG, ...args], {
    cwd,
    env: gitEnv(options.env),
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 60_000,
    killSignal: 'SIGKILL',
    maxBuffer: 256 * 1024 * 1024,
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new KiokuError('NOT_FOUND', 'git is not installed (needed to sync memories between machines)', {
        hint: 'install git (https://git-scm.com) and run the command again',
      });
    }
    if (code === 'ETIMEDOUT') return { code: 124, stdout: result.stdout ?? '', stderr: `git ${args[0]} took too long and was stopped` };
    throw result.error;
  }
  return { code: result.status ?? 1, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** Run git and throw a KiokuError naming the command and git's own message when it fails. */
export function gitOk(cwd: string, args: readonly string[], options: GitOptions): string {
  const result = git(cwd, args, options);
  if (result.code !== 0) {
    const said = (result.stderr || result.stdout).trim().split('\n').slice(-4).join(' / ');
    throw new KiokuError('IO', `git ${args[0]} failed in ${cwd}: ${said || `exit ${result.code}`}`, {
      path: cwd,
      hint: 'run `kioku sync status` to see the state of the repository',
    });
  }
  return result.stdout;
}

/** NUL-separated output (`-z`) as a list. */
export function splitZ(text: string): string[] {
  return text.split('\0').filter(Boolean);
}
