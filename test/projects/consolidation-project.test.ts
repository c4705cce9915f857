import { afterEach, describe, expect, it } from 'vitest';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { consolidateRole } from '../../main/core/engine/sleep/consolidate-role.js';
import { listPending } from '../../main/core/engine/sleep/pending-plans.js';
import type { CollectedBatch, Planner, SleepPlan } from '../../main/core/engine/sleep/sleep-plan.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { ROLE, writeExisting } from '../sleep/sleep-fixtures.js';
import { writeMemoryFixture } from '../helpers/memory-fixtures.js';

/**
 * Issue 12: consolidation keeps the project. Apply — not the planner — gives a created or merged
 * memory its `project` / `project_specific` from all its parts (projects/memory-project.ts
 * combineProjectFields), recorded in the pending plan before any file changes, so an LLM plan
 * that never mentions projects keeps them as the local planner does, and a crash replay too.
 */
const A = '/work/shop-api';
const B = '/work/blog';
let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

/** An inbox preference with the project keys capture writes. */
function inbox(memoryHome: string, id: string, body: string, extra: Record<string, unknown>) {
  return writeMemoryFixture(
    memoryHome,
    ROLE,
    'inbox',
    id,
    {
      summary: body.slice(0, 30),
      tags: [],
      priority: 3,
      memory_type: 'preference',
      retention_stage: 'working',
      sleep_stage: 'encoding',
      created: '2026-11-29T10:00:00',
      updated: '2026-11-29T10:00:00',
      ...extra,
    },
    body,
  );
}

/** A planner that knows nothing of projects, like an LLM's plan. */
function fixedPlanner(make: (batch: CollectedBatch, planId: string) => SleepPlan): Planner {
  return { name: 'fixed', plan: (batch, planId) => Promise.resolve(make(batch, planId)), batchLimits: { items: 100 } };
}

const create = (key: string, summary: string, sources: string[]) => ({
  key,
  category: 'important' as const,
  summary,
  body: summary,
  tags: [],
  priority: 4,
  cues: [],
  memory_type: 'preference' as const,
  declarative: 'explicit' as const,
  relevance: [],
  expires: '',
  links: [],
  sources,
});

describe('consolidation keeps the project (issue 12)', () => {
  it('created and merged memories take their project fields from all their parts', async () => {
    const h = makeTempHome({ KIOKU_NOW: '2026-11-30T03:00:00' });
    home = h;
    const mem = h.memoryHome;
    inbox(mem, 'i1', '這個 repo 函式名用 kio_ 前綴', { project: A, project_specific: true });
    inbox(mem, 'i2', '在 A 說的一般偏好：先講結論', { project: A });
    inbox(mem, 'i3', '這個 repo 也用 kio_ 前綴', { project: B, project_specific: true });
    inbox(mem, 'i4', '在 A 說的：回覆短一點', { project: A });
    inbox(mem, 'i5', '在 B 說的：回覆短一點', { project: B });
    inbox(mem, 'i6', '在 A 說的：回覆用繁中', { project: A });
    writeExisting(mem, 't1', { memory_type: 'preference', project: A }, '既有的一般偏好：用繁中');
    const config = h.config();
    const planner = fixedPlanner(
      (batch, planId) =>
        ({
          v: 1,
          id: planId,
          role: ROLE,
          planner: 'fixed',
          batch: batch.items.map((item) => item.id),
          create: [
            create('same-project', 'kio_ 前綴與先講結論', ['i1', 'i2']),
            create('two-projects', 'kio_ 前綴', ['i3']),
            create('mixed-global', '回覆短一點', ['i4', 'i5']),
          ],
          merge: [{ target: 't1', summary: '回覆用繁中', body: '回覆用繁中', tags: [], cues: [], priority: 4, links: [], sources: ['i6'] }],
          link: [],
          bonds: [],
          discard: [],
          corrections: [],
          supersede: [],
          digest: '整理',
        }) as SleepPlan,
    );
    const result = await consolidateRole(config, ROLE, { planner, reason: 'manual' });
    expect(result).toMatchObject({ ok: true, processed: 6 });
    expect(listPending(mem, ROLE).plans).toEqual([]);
    const kept = loadRoleMemories(mem, ROLE).memories;
    const by = (summary: string) => kept.find((memory) => memory.summary === summary)!.extra;
    // A convention with a global remark of the same project: still that project's.
    expect(by('kio_ 前綴與先講結論')).toMatchObject({ project: A, project_specific: true });
    expect(by('kio_ 前綴')).toMatchObject({ project: B, project_specific: true });
    // User-wide wishes said in two projects: global, and no single project to name.
    expect(by('回覆短一點').project).toBeUndefined();
    expect(by('回覆短一點').project_specific).toBeUndefined();
    // A merge: the target is one more part; both said in A, both global → global, project A.
    expect(by('回覆用繁中')).toMatchObject({ project: A, sources: ['i6'] });
    expect(by('回覆用繁中').project_specific).toBeUndefined();
  });
});
