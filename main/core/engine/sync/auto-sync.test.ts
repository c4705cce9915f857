import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../platform/config/log.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { createAutoSync } from './auto-sync.js';
import { writeSyncConfig } from './sync-config.js';
import type { SyncRun } from './sync-now.js';
import { writeSyncRecord } from './sync-state.js';

let home: TempHome | undefined;
afterEach(() => home?.cleanup());

function setup(): { runs: string[]; at: { now: string }; busy: { on: boolean }; sync: ReturnType<typeof createAutoSync> } {
  home = makeTempHome({ KIOKU_SYNC_INTERVAL_MINUTES: '30' });
  fs.mkdirSync(path.join(home.memoryHome, '.git'));
  const at = { now: '2026-12-02T10:00:00+08:00' };
  const busy = { on: false };
  const runs: string[] = [];
  const config = () => home!.config({ KIOKU_NOW: at.now });
  writeSyncConfig(config().paths, { machine: 'desk', approvedAt: '2026-12-01T00:00:00Z' });
  const sync = createAutoSync({
    config,
    logger: silentLogger,
    busy: () => busy.on,
    runSync: async (c): Promise<SyncRun> => {
      runs.push(at.now);
      writeSyncRecord(c.paths, { at: c.clock.now().toISOString(), outcome: 'ok', message: '', failures: 0, lastOkAt: null, conflicts: 0 });
      return { outcome: 'ok', message: '', trees: [], seconds: 0 };
    },
  });
  return { runs, at, busy, sync };
}

describe('automatic sync in the app and the daemon', () => {
  it('syncs at start, then every KIOKU_SYNC_INTERVAL_MINUTES, never while a consolidation runs', async () => {
    const { runs, at, busy, sync } = setup();
    await sync.check();
    expect(runs).toEqual(['2026-12-02T10:00:00+08:00']);
    at.now = '2026-12-02T10:29:00+08:00';
    await sync.check();
    expect(runs).toHaveLength(1);
    at.now = '2026-12-02T10:30:00+08:00';
    busy.on = true;
    await sync.check();
    expect(runs).toHaveLength(1);
    busy.on = false;
    await sync.check();
    expect(runs).toEqual(['2026-12-02T10:00:00+08:00', '2026-12-02T10:30:00+08:00']);
  });

  it('backs off after failures (an offline remote is tried after 1, 2, 4 … minutes)', async () => {
    const { runs, at, sync } = setup();
    await sync.check();
    const paths = home!.config().paths;
    writeSyncRecord(paths, {
      at: new Date('2026-12-02T10:00:00+08:00').toISOString(),
      outcome: 'offline',
      message: 'x',
      failures: 3,
      lastOkAt: null,
      conflicts: 0,
    });
    at.now = '2026-12-02T10:03:00+08:00';
    await sync.check();
    expect(runs).toHaveLength(1);
    at.now = '2026-12-02T10:04:00+08:00';
    await sync.check();
    expect(runs).toHaveLength(2);
  });

  it('does nothing on a home that is not synced', async () => {
    const { runs, sync } = setup();
    fs.rmSync(path.join(home!.memoryHome, '.git'), { recursive: true });
    await sync.check();
    expect(runs).toEqual([]);
  });
});
