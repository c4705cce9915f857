import { afterEach, describe, expect, it } from 'vitest';
import { writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { loadRoleMemories } from '../../store/memory/memory-layout.js';
import { consolidateRole } from './consolidate-role.js';
import { keepSourceGrants } from './keep-grants.js';
import type { PlanCreate, Planner, SleepPlan } from './sleep-plan.js';

/**
 * Issue 12: a one-time grant must not leave the night as a lasting rule because a planner (an
 * LLM) dropped or rewrote its `expires`. Local times throughout (no offsets).
 */
const ROLE = 'LUMI01';
const SESSION_GRANT = '本工作階段（session s-7，2026-04-09 授權）';

function create(key: string, sources: string[], expires = ''): PlanCreate {
  return {
    key,
    category: 'important',
    summary: `摘要 ${key}`,
    body: `內容 ${key}`,
    tags: [],
    priority: 4,
    cues: [],
    memory_type: 'preference',
    declarative: 'explicit',
    relevance: ['future'],
    expires,
    links: [],
    sources,
  };
}

function plan(creates: PlanCreate[]): SleepPlan {
  return {
    v: 1,
    id: 'p1',
    role: ROLE,
    planner: 'model',
    batch: creates.flatMap((c) => c.sources),
    create: creates,
    merge: [],
    correct: [],
    link: [],
    discard: [],
    bonds: [],
    digest: '整理',
  } as unknown as SleepPlan;
}

describe('keepSourceGrants', () => {
  it('gives a created memory back the grant its source carried when the plan dropped or rewrote it', () => {
    const items = [{ id: 'I1', expires: SESSION_GRANT }, { id: 'I2', expires: '2026-04-13' }, { id: 'I3' }];
    const { plan: kept, kept: notes } = keepSourceGrants(
      plan([create('n1', ['I1']), create('n2', ['I2'], 'PR 合併後'), create('n3', ['I3']), create('n4', ['I1'], SESSION_GRANT)]),
      items,
    );
    expect(kept.create.map((c) => c.expires)).toEqual([SESSION_GRANT, '2026-04-13', '', SESSION_GRANT]);
    expect(kept.create[0]!.relevance).toContain('temporary');
    expect(notes).toHaveLength(2);
  });

  it('takes the narrowest of several: a session grant, else the earliest date', () => {
    const items = [
      { id: 'A', expires: '2026-04-20' },
      { id: 'B', expires: '2026-04-13' },
      { id: 'C', expires: 'PR 合併後' },
      { id: 'D', expires: SESSION_GRANT },
    ];
    expect(keepSourceGrants(plan([create('n1', ['A', 'B', 'C'])]), items).plan.create[0]!.expires).toBe('2026-04-13');
    expect(keepSourceGrants(plan([create('n1', ['A', 'D'])]), items).plan.create[0]!.expires).toBe(SESSION_GRANT);
  });
});

describe('a consolidation whose planner drops the grant', () => {
  let home: TempHome | undefined;
  afterEach(() => home?.cleanup());

  it('still writes the created memory with the grant, so it is never loaded in another session', async () => {
    home = makeTempHome({ KIOKU_NOW: '2026-04-09T23:00:00' });
    writeMemoryFixture(
      home.memoryHome,
      ROLE,
      'inbox',
      '20260409-100000-000001',
      {
        summary: '使用者表示：「這次可以直接 force push」',
        priority: 3,
        memory_type: 'preference',
        relevance: ['future', 'temporary'],
        expires: SESSION_GRANT,
        created: '2026-04-09T10:00:00',
      },
      '- 使用者原話：這次可以直接 force push',
    );
    // What a model may answer: the permission as a lasting preference, no expires.
    const model: Planner = {
      name: 'cli:fake',
      plan: (batch, planId) =>
        Promise.resolve({
          ...plan([
            create(
              'n1',
              batch.items.map((item) => item.id),
            ),
          ]),
          id: planId,
          planner: 'cli:fake',
          batch: batch.items.map((item) => item.id),
        }),
    };
    const config = home.config();
    const result = await consolidateRole(config, ROLE, { planner: model, reason: 'manual' });
    expect(result).toMatchObject({ ok: true, left: 0 });
    const created = loadRoleMemories(home.memoryHome, ROLE).memories.filter((m) => m.category === 'important');
    expect(created.map((m) => m.expires)).toEqual([SESSION_GRANT]);
  });
});
