import { spawn } from 'node:child_process';
import { guardChild } from '../helpers/child-guard.js';

/** Runs one bench floor program (hook-floors.ts, cli-floors.ts) under the test's child guard: its exit code and stdout. */
export function runFloor(args: string[], input = ''): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = guardChild(spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] }));
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(input);
  });
}
