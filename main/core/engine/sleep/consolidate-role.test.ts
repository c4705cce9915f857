import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import {
  countOf,
  readArchives,
  readConsolidated,
  ROLE,
  scriptedPlanner,
  writeExisting,
  writeInbox,
} from '../../../../test/sleep/sleep-fixtures.js';
import { formatLocalDateTime } from '../../platform/config/clock.js';
import { readLockInfo, tryAcquireLock } from '../../platform/fs/file-lock.js';
import { readDigests } from '../../store/memory/digests.js';
import { memoryLockFile } from '../../store/memory/memory-layout.js';
import { queuedBytes, queueReplays } from '../../store/index/replay-queue.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { readMemoryState } from '../../store/memory/memory-state.js';
import { readForgettingRecord } from './forgetting-record.js';
import { consolidateRole } from './consolidate-role.js';
import { listPending } from './pending-plans.js';
import type { SleepProgress } from './sleep-result.js';
import type { Planner } from './sleep-plan.js';

const NOW = '2026-11-30T03:00:00+08:00';
let home: TempHome;
afterEach(() => home?.cleanup());

const roleDir = () => path.join(home.memoryHome, ROLE);
const inboxTree = () => snapshotTree(path.join(roleDir(), 'inbox'));

/** Ten inbox items 記號-0 … 記號-9 and one memory of each type a merge may go into. */
function setup(env: NodeJS.ProcessEnv = {}) {
  home?.cleanup(); // a test that sets up twice leaves no temp home behind
  home = makeTempHome({ KIOKU_NOW: NOW, ...env });
  writeExisting(home.memoryHome, 'EPI', { category: 'daily', memory_type: 'episodic', priority: 4 }, '之前的工作紀錄。');
  for (let n = 0; n < 10; n++)
    writeInbox(home.memoryHome, {
      id: `I${n}`,
      body: `第 ${n} 件事。記號-${n}。`,
      created: `2026-11-29T10:${String(n).padStart(2, '0')}:00+08:00`,
    });
  return home.config();
}

/** Every marker in exactly one place: one memory (created or merged), or only the raw archive (discarded). */
function expectEachMarkerOnce(count: number): void {
  const memories = [...readConsolidated(roleDir()).values()].join('\n');
  const archives = [...readArchives(path.join(roleDir(), 'archive', 'raw')).values()].join('\n');
  for (let n = 0; n < count; n++) {
    const marker = `記號-${n}。`;
    expect(countOf(archives, marker), marker).toBe(1);
    expect(countOf(memories, marker), marker).toBe(n % 4 === 3 ? 0 : 1);
  }
}

describe('consolidateRole', () => {
  it('consolidates the inbox batch by batch, then forgets and records the sleep', async () => {
    const config = setup();
    writeExisting(
      home.memoryHome,
      'OLD',
      { category: 'daily', memory_type: 'episodic', priority: 1, hits: 0, updated: '2026-10-01T00:00:00+08:00' },
      '很久以前的小事。',
    );
    const planner = scriptedPlanner();
    const events: SleepProgress[] = [];
    const result = await consolidateRole(config, ROLE, { planner, reason: 'manual', onProgress: (event) => void events.push(event) });
    expect(result).toMatchObject({
      id: ROLE,
      ok: true,
      processed: 10,
      discarded: 2,
      forgotten: 1,
      left: 0,
      batches: 3,
      replayed: 0,
      planner: 'scripted',
    });
    expect(result.created + result.merged).toBeGreaterThan(0);
    expect(planner.calls).toEqual([4, 4, 2]);
    expect(fs.readdirSync(path.join(roleDir(), 'inbox'))).toEqual([]);
    expectEachMarkerOnce(10);
    // One digest per batch, then one for what was forgotten, pointing to its record (the sleep history lists it).
    const digests = readDigests(home.memoryHome, ROLE);
    expect(digests).toHaveLength(4);
    expect(digests.slice(1).map((d) => d.record)).toEqual(digests.slice(1).map(() => expect.stringMatching(/^plan:/)));
    expect(digests[0]).toMatchObject({ applied: { forgotten: 1 }, reason: 'manual', record: expect.stringMatching(/^forgetting:/) });
    expect(digests[0]!.summary).toContain('遺忘了 1 則');
    const forgotten = readForgettingRecord(home.memoryHome, ROLE, digests[0]!.record!.slice('forgetting:'.length));
    expect(forgotten?.forgotten).toEqual([
      expect.objectContaining({ id: 'OLD', category: 'daily', archive: expect.stringMatching(/^archive\/forgotten\/OLD/) }),
    ]);
    expect(readMemoryState(home.memoryHome, ROLE).state.last_sleep).toBeTruthy();
    expect(events.map((e) => e.type)).toEqual([
      'locked',
      'role-start',
      'batch-start',
      'batch-applied',
      'batch-start',
      'batch-applied',
      'batch-start',
      'batch-applied',
      'role-done',
    ]);
    expect(events[1]).toMatchObject({ inbox: 10, planner: 'scripted' });
  });

  it('an execution error is retried on the same batch; truncated output halves the batch (4 → 2)', async () => {
    const config = setup();
    const once = scriptedPlanner((call) => (call === 1 ? 'execution' : undefined));
    expect(await consolidateRole(config, ROLE, { planner: once, reason: 'manual' })).toMatchObject({ ok: true, processed: 10, left: 0 });
    expect(once.calls).toEqual([4, 4, 4, 2]);
    expectEachMarkerOnce(10);

    const config2 = setup();
    const truncating = scriptedPlanner((_call, batch) => (batch.items.length > 2 ? 'truncated' : undefined));
    expect(await consolidateRole(config2, ROLE, { planner: truncating, reason: 'manual' })).toMatchObject({
      ok: true,
      processed: 10,
      left: 0,
    });
    expect(truncating.calls).toEqual([4, 4, 2, 2, 2, 2, 2]);
    expectEachMarkerOnce(10);
  });

  for (const kind of ['execution', 'truncated', 'invalid', 'garbage'] as const) {
    it(`a planner that keeps failing (${kind}) leaves every inbox item in place and says why, with the numbers`, async () => {
      const config = setup();
      const before = inboxTree();
      const failing = scriptedPlanner(() => kind);
      const result = await consolidateRole(config, ROLE, { planner: failing, reason: 'manual' });
      expect(failing.calls).toEqual([4, 4, 2, 2, 1, 1]);
      expect(result).toMatchObject({ ok: false, processed: 0, left: 10 });
      expect(result.error).toMatch(/batch of 1 after a retry; the inbox is left as it was/);
      expect(result.error).toMatch(/material \d+ chars/);
      expect(result.error).toMatch(/output \d+ chars/);
      expect(result.error).toMatch(/batch 1/);
      expect(result.error).toMatch(kind === 'garbage' ? /\(incomplete\)/ : new RegExp(`\\(${kind}\\)`));
      if (kind === 'execution') expect(result.error).toContain('Execution error');
      expect(inboxTree()).toEqual(before);
      expect(listPending(home.memoryHome, ROLE).plans).toEqual([]);
      expect(fs.existsSync(path.join(roleDir(), 'DIGESTS.md'))).toBe(false);
      expect(readMemoryState(home.memoryHome, ROLE).state.last_sleep).toBeNull();
    });
  }

  it('a planner that never answers times out like any other failure', async () => {
    const config = setup();
    const before = inboxTree();
    const silent: Planner = { name: 'silent', plan: () => new Promise(() => undefined) };
    const result = await consolidateRole(config, ROLE, { planner: silent, reason: 'manual', planTimeoutMs: 50 });
    expect(result).toMatchObject({ ok: false, left: 10 });
    expect(result.error).toMatch(/\(timeout\)/);
    expect(inboxTree()).toEqual(before);
  });

  it('reports busy at once when another process holds the memory lock', async () => {
    const config = setup();
    const held = tryAcquireLock(memoryLockFile(home.memoryHome, ROLE), { purpose: 'a probe' })!;
    try {
      const before = snapshotTree(roleDir());
      const result = await consolidateRole(config, ROLE, { planner: scriptedPlanner(), reason: 'manual', lockWaitMs: 0 });
      expect(result).toMatchObject({ ok: false, busy: true, processed: 0 });
      expect(result.error).toMatch(/busy: .*a probe/);
      // The holder's time on the user's clock, like every other time shown (not UTC …Z).
      expect(result.error).toContain(`since ${formatLocalDateTime(new Date(readLockInfo(memoryLockFile(home.memoryHome, ROLE))!.since))}`);
      expect(snapshotTree(roleDir())).toEqual(before);
    } finally {
      held.release();
    }
  });

  it('a run that dies mid-apply is finished by the next run before anything new is planned', async () => {
    const config = setup();
    let applies = 0;
    const crash = {
      afterStep: (step: string) => {
        if (step.startsWith('archive:') && ++applies === 6) throw new Error('disk went away');
      },
    };
    const first = await consolidateRole(config, ROLE, { planner: scriptedPlanner(), reason: 'manual', applyHooks: crash });
    expect(first).toMatchObject({ ok: false, processed: 4 });
    expect(first.error).toContain('disk went away');
    expect(listPending(home.memoryHome, ROLE).plans).toHaveLength(1);
    const planner = scriptedPlanner();
    const second = await consolidateRole(config, ROLE, { planner, reason: 'manual' });
    expect(second).toMatchObject({ ok: true, replayed: 1, processed: 6, left: 0 });
    expect(planner.calls).toEqual([2]);
    expectEachMarkerOnce(10);
    expect(readDigests(home.memoryHome, ROLE)).toHaveLength(3);
  });

  it('writes the hits that recalls without the daemon queued before it reads any count (issue 17)', async () => {
    const config = setup();
    const file = writeExisting(
      home.memoryHome,
      'OFT',
      { category: 'daily', memory_type: 'episodic', hits: 1, strength: 50 },
      '常被想起的事。',
    );
    queueReplays(home.memoryHome, ROLE, NOW, [{ path: file, category: 'daily', mtimeMs: fs.statSync(file).mtimeMs }]);
    const result = await consolidateRole(config, ROLE, { planner: scriptedPlanner(), reason: 'manual' });
    expect(result.ok).toBe(true);
    expect(parseFrontmatter(fs.readFileSync(file, 'utf8')).data).toMatchObject({ hits: 2, strength: 58, last_replayed: NOW });
    expect(queuedBytes(home.memoryHome, ROLE)).toBe(0);
  });
});
