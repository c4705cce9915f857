import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listMemoryFiles } from '../../main/core/store/memory/memory-layout.js';
import { runSleep } from '../../main/core/engine/sleep/run-sleep.js';
import { createLocalPlanner } from '../../main/core/engine/sleep/local-planner/index.js';
import { readLease } from '../../main/core/engine/sync/sync-lease.js';
import { syncNow } from '../../main/core/engine/sync/sync-now.js';
import { initMachine, makeCluster, memoryIds, remember, writeRole, type Cluster, type Machine } from './sync-kit.js';

const ROLE = 'LUMI01';
let cluster: Cluster | undefined;
afterEach(() => {
  cluster?.cleanup();
  cluster = undefined;
});

function consolidatedIds(m: Machine): string[] {
  return listMemoryFiles(m.env.ROLE_MEMORY_HOME!, ROLE)
    .filter((ref) => ref.category !== 'inbox')
    .map((ref) => path.basename(ref.path, '.md'))
    .sort();
}

const sleep = (m: Machine, at: string) =>
  runSleep(m.config({ KIOKU_NOW: at }), {
    role: ROLE,
    force: true,
    reason: 'sleep',
    planner: createLocalPlanner(m.config({ KIOKU_NOW: at })),
  });

describe('one sleeper per role across machines', () => {
  it('the machine that takes the lease consolidates; the other waits; an inbox captured later waits for the next sleep', async () => {
    cluster = makeCluster();
    const a = cluster.machine('desk');
    const b = cluster.machine('laptop');
    writeRole(a, ROLE, '露米');
    await remember(a, ROLE, 'inbox', '使用者說：我偏好用 pnpm，不要用 npm。');
    await initMachine(a, cluster.remote);
    await initMachine(b, cluster.remote);
    await remember(b, ROLE, 'inbox', '使用者說：測試一律用 vitest。');
    await syncNow(b.config());
    await syncNow(a.config());
    expect(memoryIds(a, ROLE)).toEqual(memoryIds(b, ROLE)); // both hold the same two inbox items

    const onA = await sleep(a, '2026-12-02T01:00:00+08:00');
    expect(onA.roles[0]).toMatchObject({ id: ROLE, ok: true, processed: 2 });
    expect(onA.sync?.outcome).toBe('ok');
    expect(readLease(a.env.ROLE_MEMORY_HOME!, ROLE)?.holder).toBe('desk');

    // The laptop captured an item meanwhile and tries to sleep the same night: the lease is the desk's.
    await remember(b, ROLE, 'inbox', '使用者說：晚上不要提醒我開會。');
    const onB = await sleep(b, '2026-12-02T01:30:00+08:00');
    expect(onB.roles[0]).toMatchObject({ id: ROLE, ok: true, processed: 0, elsewhere: 'desk' });
    expect(onB.roles[0]!.warnings.join(' ')).toContain('desk');

    await syncNow(b.config({ KIOKU_NOW: '2026-12-02T01:40:00+08:00' }));
    // The desk's next hourly sleep renews its lease and takes the laptop's late item.
    const again = await sleep(a, '2026-12-02T02:00:00+08:00');
    expect(again.roles[0]).toMatchObject({ ok: true, processed: 1 });
    expect(again.sync).toEqual({ outcome: 'ok', message: '' });
    await syncNow(b.config({ KIOKU_NOW: '2026-12-02T02:10:00+08:00' }));

    for (const m of [a, b]) {
      expect(
        listMemoryFiles(m.env.ROLE_MEMORY_HOME!, ROLE)
          .filter((ref) => ref.category === 'inbox')
          .map((ref) => m.name + ' ' + fs.readFileSync(ref.path, 'utf8')),
      ).toEqual([]);
    }
    expect(consolidatedIds(a)).toEqual(consolidatedIds(b));
    // Each inbox item was consolidated once: the raw archive holds exactly three, on both machines.
    for (const m of [a, b]) {
      const raw = path.join(m.env.ROLE_MEMORY_HOME!, ROLE, 'archive', 'raw');
      const archived = fs.readdirSync(raw, { recursive: true }).filter((name) => String(name).endsWith('.gz'));
      expect(archived).toHaveLength(3);
    }
  });

  it('an expired lease lets another machine sleep the role', async () => {
    cluster = makeCluster();
    const a = cluster.machine('desk');
    const b = cluster.machine('laptop');
    writeRole(a, ROLE, '露米');
    await remember(a, ROLE, 'inbox', '使用者說：我偏好用 pnpm。');
    await initMachine(a, cluster.remote);
    await initMachine(b, cluster.remote);
    await sleep(a, '2026-12-02T01:00:00+08:00');
    await syncNow(b.config());
    await remember(b, ROLE, 'inbox', '使用者說：測試一律用 vitest。');
    // KIOKU_SYNC_LEASE_MINUTES is 120 by default: at 03:30 the desk's 01:00 lease has lapsed.
    const late = await sleep(b, '2026-12-02T03:30:00+08:00');
    expect(late.roles[0]).toMatchObject({ ok: true, processed: 1 });
    expect(late.roles[0]!.elsewhere).toBeUndefined();
    expect(readLease(b.env.ROLE_MEMORY_HOME!, ROLE)?.holder).toBe('laptop');
  });
});
