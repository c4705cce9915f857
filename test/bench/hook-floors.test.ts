import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFloor } from './run-floor.js';
import { FLOOR_SOCKET, FLOOR_STDIN, startHookFloors, type HookFloors } from '../../bench/hook-floors.js';

/** The hooks bench's floor programs do what a hook must do at least: read stdin; ask a socket. */
let dir: string;
let floors: HookFloors | undefined;
afterEach(async () => {
  await floors?.close();
  floors = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the hooks bench floors', () => {
  it('read the payload, and the socket floor prints the reply of one round trip', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-floors-'));
    floors = await startHookFloors(dir);
    const programs = new Map(floors.programs);
    expect([...programs.keys()]).toEqual([FLOOR_STDIN, FLOOR_SOCKET]);
    const payload = JSON.stringify({ prompt: '幫我把部署流程的測試補齊' });
    expect(await runFloor(programs.get(FLOOR_STDIN)!, payload)).toEqual({ code: 0, stdout: '' });
    expect(await runFloor(programs.get(FLOOR_SOCKET)!, payload)).toEqual({ code: 0, stdout: '{"ok":true}\n' });
  });
});
