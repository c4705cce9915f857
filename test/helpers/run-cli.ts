import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const KIOKU_BIN = path.join(root, 'bin', 'kioku.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run the built `kioku` command as a user would (a real process, so exit codes and stdout are
 * what scripts see). `npm test` builds first (pretest).
 */
export function runKioku(args: string[], env: NodeJS.ProcessEnv, input?: string): CliResult {
  const result = spawnSync(process.execPath, [KIOKU_BIN, ...args], {
    env,
    input: input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export function runKiokuJson<T = unknown>(args: string[], env: NodeJS.ProcessEnv, input?: string): T {
  const result = runKioku([...args, '--json'], env, input);
  if (result.code !== 0) throw new Error(`kioku ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
