import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACTIVE, makeHookHome, type HookHome } from '../hooks/hook-kit.js';
import { plantFile, runKiokuChild } from './hostile-kit.js';

/**
 * Issue 14, item 5: a `kill -9` mid-sleep left `.<name>.<pid>-<hex>.tmp` in archive/raw for good
 * (every reader skips such names). The next consolidation of the role removes Kioku's own old temp
 * files below its memory folder, under the memory lock, and nothing else.
 */
let home: HookHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

function aged(file: string, hours: number): string {
  // Real time: file ages are judged on the real clock, whatever KIOKU_NOW says.
  const at = new Date(Date.now() - hours * 3_600_000);
  fs.utimesSync(file, at, at);
  return file;
}

describe('orphaned temp files are cleaned on the next run', () => {
  it('kioku sleep --force removes old Kioku temp files in archive/raw and the categories, and keeps the rest', async () => {
    home = await makeHookHome();
    const h = home;
    const plant = (rel: string, hours: number) =>
      aged(plantFile(h.memoryHome, ACTIVE.id, path.dirname(rel), path.basename(rel), 'half-written'), hours);
    const orphans = [
      plant('archive/raw/2026-03-09/.20260309-230000-ab12.md.gz.31337-deadbeef.tmp', 30),
      plant('daily/.20260301-100000-cd34.md.4242-0a1b2c3d.tmp', 2),
    ];
    const kept = [
      plant('archive/raw/2026-03-09/.20260309-230000-ab12.md.gz.31338-feedf00d.tmp', 0), // may be a write in progress
      plant('archive/raw/2026-03-09/.my-notes.tmp', 30), // not a name Kioku makes
    ];
    const run = await runKiokuChild(['sleep', '--force', '--role', ACTIVE.id, '--json'], h.env);
    expect(run.signal).toBeNull();
    expect(run.code, run.stderr).toBe(0);
    for (const file of orphans) expect(fs.existsSync(file), file).toBe(false);
    for (const file of kept) expect(fs.existsSync(file), file).toBe(true);
  });
});
