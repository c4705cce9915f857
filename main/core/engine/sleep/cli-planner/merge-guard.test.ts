import { describe, expect, it } from 'vitest';
import { planProblems, sleepPlanSchema, type CollectedBatch, type ExistingMemoryRef, type SleepPlan } from '../sleep-plan.js';
import { guardMerges } from './merge-guard.js';
import { mergeableRefs, FULL_BODY_MAX_CHARS } from './sleep-prompt.js';

const ref = (id: string, memory_type: string, body?: string): ExistingMemoryRef => ({
  id,
  category: 'important',
  summary: `記憶 ${id}`,
  tags: [],
  cues: [],
  priority: 3,
  memory_type,
  links: [],
  gist: '主旨',
  ...(body === undefined ? {} : { body }),
});

const item = (id: string, memory_type: string) => ({
  id,
  path: `/x/${id}.md`,
  summary: id,
  body: id,
  tags: [],
  cues: [],
  priority: 3,
  memory_type,
  relevance: [],
  created: '',
});

const BATCH: CollectedBatch = {
  role: 'R1',
  items: [item('feel', 'emotional'), item('pref', 'preference'), item('pref2', 'preference')],
  existing: [ref('P', 'preference', '主旨：喜歡簡短回覆\n細節：不要長篇大論'), ref('E', 'emotional', '主旨：開心'), ref('Q', 'preference')],
  left: 0,
  header: '',
  materialChars: 10,
};

const merge = (target: string, sources: string[]) => ({
  target,
  summary: '合併後',
  body: '主旨：合併後',
  tags: [],
  cues: [],
  priority: 3,
  links: [],
  sources,
});

function planWith(merges: ReturnType<typeof merge>[]): SleepPlan {
  return sleepPlanSchema.parse({
    v: 1,
    id: 'p',
    role: 'R1',
    planner: 'cli:claude',
    batch: BATCH.items.map((i) => i.id),
    merge: merges,
    digest: 'd',
  });
}

describe('guardMerges (MEM-5: emotional never merged into preference)', () => {
  const mergeable = mergeableRefs(BATCH.existing);

  it('only refs with a full body within budget are mergeable', () => {
    expect([...mergeable].sort()).toEqual(['E', 'P']);
    expect(mergeableRefs([ref('L', 'rule', 'x'.repeat(FULL_BODY_MAX_CHARS + 1))]).size).toBe(0);
  });

  it('a same-type merge into a shown target stays; an emotional item into a preference becomes its own emotional memory linked to it', () => {
    const { plan, notes, problems } = guardMerges(
      planWith([merge('P', ['pref']), merge('P', ['feel']), merge('Q', ['pref2'])]),
      BATCH,
      mergeable,
    );
    expect(problems).toEqual([]);
    expect(plan.merge).toEqual([merge('P', ['pref'])]);
    expect(plan.create).toHaveLength(2);
    const emotional = plan.create.find((c) => c.sources[0] === 'feel')!;
    expect(emotional).toMatchObject({
      memory_type: 'emotional',
      declarative: 'implicit',
      priority: 4,
      relevance: ['emotional'],
      links: ['P'],
      category: 'important',
    });
    // Q's body was never shown, so merging would have dropped its detail: kept apart, linked.
    expect(plan.create.find((c) => c.sources[0] === 'pref2')).toMatchObject({ memory_type: 'preference', links: ['Q'] });
    expect(notes).toHaveLength(2);
    expect(planProblems(plan, new Set(['P', 'E', 'Q']))).toEqual([]);
    expect(sleepPlanSchema.parse(plan)).toEqual(plan);
  });

  it('a merge whose sources mix types is a problem (the batch is split by halving)', () => {
    const { problems } = guardMerges(planWith([merge('E', ['feel', 'pref']), merge('P', ['pref2'])]), BATCH, mergeable);
    expect(problems).toEqual([expect.stringContaining('mixes memory types (feel: emotional, pref: preference)')]);
  });
});
