import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FLOOR_OPEN_INDEX, FLOOR_SOCKET, startCliFloors, type CliFloors } from '../../bench/cli-floors.js';
import { openMemoryIndex } from '../../main/core/store/index/memory-index.js';

/** The CLI bench's floor programs do what a recall must do at least: open the index; ask a socket. */
let dir: string;
let floors: CliFloors | undefined;
afterEach(async () => {
  await floors?.close();
  floors = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs one floor program with a deadline; it is killed by then, pass or fail. */
function run(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout });
    });
  });
}

const root = path.resolve(import.meta.dirname, '..', '..');

describe('the CLI bench floors', () => {
  it('open the index read-only (failing without one), and make one socket round trip', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-cli-floors-'));
    const memoryHome = path.join(dir, 'memory');
    const indexFile = path.join(memoryHome, '.kioku', 'index.sqlite');
    floors = await startCliFloors(dir, indexFile, root);
    const [[downName, openIndex]] = floors.down as [[string, string[]]];
    const [[upName, roundTrip]] = floors.up as [[string, string[]]];
    expect([downName, upName]).toEqual([FLOOR_OPEN_INDEX, FLOOR_SOCKET]);

    expect((await run(openIndex)).code).not.toBe(0); // no index yet: the floor opens a real one
    const index = openMemoryIndex({ memoryHome, indexFile });
    const objects = index.db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
    index.close();
    expect(await run(openIndex)).toEqual({ code: 0, stdout: String(objects) });
    expect(await run(roundTrip)).toEqual({ code: 0, stdout: '{"ok":true}\n' });
  });
});
