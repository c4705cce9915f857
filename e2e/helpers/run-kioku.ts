import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardChild } from '../../test/helpers/child-guard.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One built script (bin/kioku.js, the hook client) as a user or an assistant runs it; killed at its deadline. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = guardChild(spawn(process.execPath, [path.join(root, script), ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] }));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.end(stdin);
  });
}

/** `kioku …` from dist (what ships), on the daemon's home: the changes "made outside the app". */
export async function kioku(args: string[], env: NodeJS.ProcessEnv, stdin?: string): Promise<string> {
  const result = await run('bin/kioku.js', args, env, stdin);
  if (result.code !== 0) throw new Error(`kioku ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** The hook client exactly as Claude Code starts it for SessionStart; returns the text the model gets. */
export async function sessionStartHook(payload: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<string> {
  const result = await run('dist/hooks/kioku-hook.js', ['session-start', '--assistant', 'claude'], env, JSON.stringify(payload));
  if (result.code !== 0) throw new Error(`the hook exited ${result.code}: ${result.stderr}`);
  // Claude Code reads plain stdout as context, and JSON when it starts with `{` (claude-adapter.ts).
  return result.stdout.startsWith('{')
    ? (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
    : result.stdout;
}
