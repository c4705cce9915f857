import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, scriptedPlanner, writeExisting, writeInbox } from '../../../../test/sleep/sleep-fixtures.js';
import { readDigests } from '../../store/memory/digests.js';
import { loadRoleMemories } from '../../store/memory/memory-layout.js';
import { consolidateRole } from './consolidate-role.js';
import { readDigestDetail, type MemoryNow } from './digest-detail.js';
import { appliedDir } from './sleep-paths.js';

/**
 * A digest opens into the memories its consolidation touched: the plan's record names what was
 * created (with the ids they got), merged and discarded; the forgetting record what faded.
 */
let home: TempHome;
afterEach(() => home?.cleanup());

async function sleptOnce(reason = 'catch-up') {
  home = makeTempHome({ KIOKU_NOW: '2026-11-30T03:00:00+08:00' });
  writeExisting(home.memoryHome, 'EPI', { category: 'daily', memory_type: 'episodic', priority: 4 }, '之前的工作紀錄。');
  writeExisting(
    home.memoryHome,
    'OLD',
    { category: 'daily', memory_type: 'episodic', priority: 1, hits: 0, updated: '2026-10-01T00:00:00+08:00' },
    '很久以前的小事。',
  );
  for (let n = 0; n < 4; n++)
    writeInbox(home.memoryHome, { id: `I${n}`, body: `第 ${n} 件事。記號-${n}。`, created: `2026-11-29T10:0${n}:00+08:00` });
  const config = home.config();
  const result = await consolidateRole(config, ROLE, { planner: scriptedPlanner(), reason });
  expect(result.ok).toBe(true);
  const byId = new Map(loadRoleMemories(home.memoryHome, ROLE).memories.map((memory) => [memory.id, memory]));
  const memoryNow: MemoryNow = (id) => (byId.has(id) ? { summary: byId.get(id)!.summary } : undefined);
  return { digests: readDigests(home.memoryHome, ROLE), memoryNow };
}

describe('readDigestDetail', () => {
  it('lists what a plan created, merged and discarded, with the ids the memories have now', async () => {
    const { digests, memoryNow } = await sleptOnce();
    const planDigest = digests.find((digest) => digest.record?.startsWith('plan:'))!;
    expect(planDigest.reason).toBe('catch-up');
    const detail = readDigestDetail(home.memoryHome, ROLE, planDigest.record!, memoryNow);
    expect(detail).toMatchObject({ role: ROLE, record: planDigest.record, reason: 'catch-up', planner: 'scripted' });
    expect(detail.created.length + detail.merged.length).toBe(planDigest.applied.created! + planDigest.applied.merged!);
    expect(detail.created.length).toBeGreaterThan(0);
    for (const created of detail.created) {
      expect(created.exists).toBe(true);
      expect(memoryNow(created.id)?.summary).toBe(created.summary);
    }
    expect(detail.discarded).toHaveLength(planDigest.applied.discarded!);
    expect(detail.forgotten).toEqual([]);
  });

  it('lists what a run forgot, with its summary and archived copy', async () => {
    const { digests, memoryNow } = await sleptOnce();
    const forgetting = digests.find((digest) => digest.record?.startsWith('forgetting:'))!;
    const detail = readDigestDetail(home.memoryHome, ROLE, forgetting.record!, memoryNow);
    expect(detail.forgotten).toEqual([
      {
        id: 'OLD',
        summary: expect.any(String),
        category: 'daily',
        why: expect.stringContaining('not updated for'),
        archive: expect.stringMatching(/^archive\/forgotten\/OLD/),
      },
    ]);
    expect(fs.existsSync(path.join(home.memoryHome, ROLE, detail.forgotten[0]!.archive!))).toBe(true);
    expect(detail.created).toEqual([]);
  });

  it('an older record without the created ids lists them by summary, without a link', async () => {
    const { digests, memoryNow } = await sleptOnce();
    const planDigest = digests.find((digest) => digest.record?.startsWith('plan:'))!;
    const file = path.join(appliedDir(home.memoryHome, ROLE), `${planDigest.record!.slice('plan:'.length)}.json`);
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete record.createdIds;
    delete record.reason;
    fs.writeFileSync(file, JSON.stringify(record));
    const detail = readDigestDetail(home.memoryHome, ROLE, planDigest.record!, memoryNow);
    expect(detail.reason).toBeUndefined();
    expect(detail.created.length).toBeGreaterThan(0);
    for (const created of detail.created) expect(created).toEqual({ id: '', summary: expect.any(String), exists: false });
  });

  it('a record no longer kept is NOT_FOUND, said as such', async () => {
    const { memoryNow } = await sleptOnce();
    expect(() => readDigestDetail(home.memoryHome, ROLE, 'plan:20200101-000000-00000000', memoryNow)).toThrow(/no longer kept/);
    expect(() => readDigestDetail(home.memoryHome, ROLE, 'forgetting:nothing', memoryNow)).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });
});
