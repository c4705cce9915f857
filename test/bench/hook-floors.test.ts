import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FLOOR_SOCKET, FLOOR_STDIN, startHookFloors, type HookFloors } from '../../bench/hook-floors.js';

/** The hooks bench's floor programs do what a hook must do at least: read stdin; ask a socket. */
let dir: string;
let floors: HookFloors | undefined;
afterEach(async () => {
  await floors?.close();
  floors = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs one floor program with a deadline; it is killed by then, pass or fail. */
function run(args: string[], input: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout });
    });
    child.stdin.end(input);
  });
}

describe('the hooks bench floors', () => {
  it('read the payload, and the socket floor prints the reply of one round trip', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-floors-'));
    floors = await startHookFloors(dir);
    const programs = new Map(floors.programs);
    expect([...programs.keys()]).toEqual([FLOOR_STDIN, FLOOR_SOCKET]);
    const payload = JSON.stringify({ prompt: '幫我把部署流程的測試補齊' });
    expect(await run(programs.get(FLOOR_STDIN)!, payload)).toEqual({ code: 0, stdout: '' });
    expect(await run(programs.get(FLOOR_SOCKET)!, payload)).toEqual({ code: 0, stdout: '{"ok":true}\n' });
  });
});
