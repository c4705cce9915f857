import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFloor } from './run-floor.js';
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

    expect((await runFloor(openIndex)).code).not.toBe(0); // no index yet: the floor opens a real one
    const index = openMemoryIndex({ memoryHome, indexFile });
    const objects = index.db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
    index.close();
    expect(await runFloor(openIndex)).toEqual({ code: 0, stdout: String(objects) });
    expect(await runFloor(roundTrip)).toEqual({ code: 0, stdout: '{"ok":true}\n' });
  });
});
