import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { guardChild } from '../helpers/child-guard.js';
import type { CliResult } from '../helpers/run-cli.js';

/**
 * The hostile-input suite (issue 14): files an attacker, a sync tool or a careless edit can put
 * in a memory home, run through the shipped commands as real processes. Each child has a deadline
 * (child-guard.ts): a command that hangs or runs out of heap fails its test on what it did not
 * print, never on how long it took.
 */

/**
 * The children get a small heap: a bomb that is not refused then dies in seconds instead of after
 * a minute of swapping (issue 14 measured ~57 s at the default heap), and everything Kioku really
 * does with a test home fits easily.
 */
export const SMALL_HEAP = { NODE_OPTIONS: '--max-old-space-size=192' };

let cliBundle: string | undefined;

/** `kioku` exactly as shipped (test/ipc/fixtures/kioku-cli.ts), bundled from source once per process. */
export function kiokuBundle(): string {
  cliBundle ??= bundleEntry('test/ipc/fixtures/kioku-cli.ts');
  return cliBundle;
}

export function runKiokuChild(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliResult & { signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = guardChild(spawn(process.execPath, [kiokuBundle(), ...args], { env: { ...env, ...SMALL_HEAP } }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Nine lines of nine aliases each: ~420 bytes that expand into 9^9 strings once walked. */
export function billionLaughs(id: string, summary = '炸彈'): string {
  const names = 'abcdefghi';
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < names.length; i++)
    lines.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(',')}]`,
    );
  return `---\nid: ${id}\ncategory: daily\nsummary: ${summary}\n${lines.join('\n')}\ntags: *i\ncues: *i\n---\n${summary}：lol\n`;
}

/** Write a file below a role's memory folder as a sync tool or an import would, returning its path. */
export function plantFile(memoryHome: string, role: string, category: string, name: string, bytes: string | Buffer): string {
  const file = path.join(memoryHome, role, category, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  return file;
}

/** Everything the daemon and the hook logged (state dir logs), for "the file was named" checks. */
export function readLogs(logsDir: string): string {
  try {
    return fs
      .readdirSync(logsDir)
      .map((name) => fs.readFileSync(path.join(logsDir, name), 'utf8'))
      .join('\n');
  } catch {
    return '';
  }
}
