import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendBond, readBonds } from '../../main/core/store/memory/bonds.js';
import { appendJournal, readJournal } from '../../main/core/store/notes/journal.js';
import { readMemoryState, updateMemoryState } from '../../main/core/store/memory/memory-state.js';
import { syncNow } from '../../main/core/engine/sync/sync-now.js';
import { initMachine, makeCluster, memoryIds, remember, writeRole, type Cluster } from './sync-kit.js';

const ROLE = 'LUMI01';
let cluster: Cluster | undefined;
afterEach(() => {
  cluster?.cleanup();
  cluster = undefined;
});

describe('two machines sharing one bare repository', () => {
  it('a second machine receives the first one’s role and memories, and both sides’ new ones meet', async () => {
    cluster = makeCluster();
    const a = cluster.machine('desk');
    const b = cluster.machine('laptop');
    writeRole(a, ROLE, '露米');
    const first = [await remember(a, ROLE, 'daily', '使用者喜歡 tabs'), await remember(a, ROLE, 'important', '使用者叫阿明')];
    await initMachine(a, cluster.remote);
    await initMachine(b, cluster.remote);
    expect(memoryIds(b, ROLE)).toEqual([...first].sort());
    expect(fs.existsSync(path.join(b.env.ROLE_HOME!, `${ROLE}.identity.md`))).toBe(true);

    const onA = [await remember(a, ROLE, 'inbox', 'A 的待整理 1'), await remember(a, ROLE, 'daily', 'A 的記憶')];
    const onB = [await remember(b, ROLE, 'inbox', 'B 的待整理 1'), await remember(b, ROLE, 'inbox', 'B 的待整理 2')];
    await syncNow(a.config());
    await syncNow(b.config());
    await syncNow(a.config());
    const all = [...first, ...onA, ...onB].sort();
    expect(memoryIds(a, ROLE)).toEqual(all);
    expect(memoryIds(b, ROLE)).toEqual(all);
  });

  it('BONDS.md, JOURNAL.jsonl and state.json written on both sides merge without losing a line or a count', async () => {
    cluster = makeCluster();
    const a = cluster.machine('desk');
    const b = cluster.machine('laptop');
    writeRole(a, ROLE, '露米');
    await remember(a, ROLE, 'daily', '起點');
    await appendBond(a.config(), ROLE, { text: '第一天見面', direction: 'mutual' });
    await appendJournal(a.config(), { text: 'journal base' });
    updateMemoryState(a.env.ROLE_MEMORY_HOME!, ROLE, a.config().clock, (s) => ({ ...s, total_turns: 10 }));
    await initMachine(a, cluster.remote);
    await initMachine(b, cluster.remote);

    const at = (machine: typeof a, time: string) => machine.config({ KIOKU_NOW: time });
    await appendBond(at(a, '2026-12-02T09:00:00+08:00'), ROLE, { text: 'A：謝謝妳陪我除錯', direction: 'user-to-role' });
    await appendBond(at(b, '2026-12-02T08:00:00+08:00'), ROLE, { text: 'B：早安', direction: 'role-to-user' });
    await appendBond(at(b, '2026-12-02T10:00:00+08:00'), ROLE, { text: 'B：晚點見', direction: 'mutual' });
    await appendJournal(at(a, '2026-12-02T09:30:00+08:00'), { text: 'A journal' });
    await appendJournal(at(b, '2026-12-02T09:15:00+08:00'), { text: 'B journal' });
    updateMemoryState(a.env.ROLE_MEMORY_HOME!, ROLE, a.config().clock, (s) => ({
      ...s,
      total_turns: s.total_turns + 3,
      last_activity: '2026-12-02T09:00:00+08:00',
    }));
    updateMemoryState(b.env.ROLE_MEMORY_HOME!, ROLE, b.config().clock, (s) => ({
      ...s,
      total_turns: s.total_turns + 5,
      last_activity: '2026-12-02T10:00:00+08:00',
    }));

    await syncNow(a.config());
    await syncNow(b.config());
    await syncNow(a.config());
    for (const machine of [a, b]) {
      const home = machine.env.ROLE_MEMORY_HOME!;
      expect(
        readBonds(home, ROLE)
          .map((bond) => bond.text)
          .reverse(),
      ).toEqual(['第一天見面', 'B：早安', 'A：謝謝妳陪我除錯', 'B：晚點見']);
      expect(readJournal(path.join(home, 'JOURNAL.jsonl')).entries.map((e) => e.text)).toEqual(['journal base', 'B journal', 'A journal']);
      const state = readMemoryState(home, ROLE).state;
      expect(state.total_turns).toBe(18);
      expect(state.last_activity).toBe('2026-12-02T10:00:00+08:00');
      expect(fs.readFileSync(path.join(home, ROLE, 'BONDS.md'), 'utf8')).not.toMatch(/^(<<<<<<<|>>>>>>>|=======)/m);
    }
  });
});
