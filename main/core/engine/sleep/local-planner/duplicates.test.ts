import { describe, expect, it } from 'vitest';
import { batchOf, existingRef, plannerConfig, turnItem, turnItems } from '../../../../../test/helpers/local-planner-inbox.js';
import { planProblems, type ExistingMemoryRef, type InboxItem, type SleepPlan } from '../sleep-plan.js';
import { createLocalPlanner } from './index.js';
import { FeatureSpace, featuresOf, similarity } from './text-features.js';

async function planOf(items: InboxItem[], refs: ExistingMemoryRef[] = []): Promise<SleepPlan> {
  const plan = await createLocalPlanner(plannerConfig()).plan(batchOf(items, refs), 'p');
  expect(planProblems(plan, new Set(refs.map((r) => r.id)))).toEqual([]);
  return plan;
}

const PREF_ID = '20261120-090000-aaaaaa';
const preferenceRef = (extra: Partial<ExistingMemoryRef> = {}) =>
  existingRef({
    id: PREF_ID,
    summary: '使用者表示：「我喜歡喝手沖咖啡，尤其是淺焙的」',
    tags: ['偏好', '咖啡'],
    memory_type: 'preference',
    links: ['20261101-000000-cccccc'],
    body: '主旨：使用者表示：「我喜歡喝手沖咖啡，尤其是淺焙的」\n\n細節：\n- 使用者原話：我喜歡喝手沖咖啡，尤其是淺焙的\n- 角色當時的回應：淺焙的果酸很迷人呢',
    ...extra,
  });

describe('CJK-aware similarity', () => {
  const space = new FeatureSpace();
  const sim = (a: string, b: string) => similarity(featuresOf(space, [a]), featuresOf(space, [b]));

  it('scores rephrasings high and different topics low, without spaces between words', () => {
    expect(sim('我喜歡喝手沖咖啡，尤其是淺焙的', '我最喜歡淺焙的手沖咖啡')).toBeGreaterThanOrEqual(0.5);
    expect(sim('部署前要先跑 npm test 和 lint', '部署之前記得先跑 lint 跟 npm test')).toBeGreaterThanOrEqual(0.5);
    expect(sim('我喜歡喝手沖咖啡', '今天修好了登入頁的 bug')).toBeLessThan(0.1);
  });

  it('normalises width, case and the Simplified forms of the cue vocabulary', () => {
    expect(sim('ＤＯＣＫＥＲ 部署設定', 'docker 部署設定')).toBe(1);
    expect(sim('以後记得写测试', '以後記得寫測試')).toBeGreaterThan(0.6);
  });

  it('ignores the capture framing every item carries', () => {
    expect(sim('使用者表示：「我喜歡貓」', '使用者表示：「部署要先跑測試」')).toBeLessThan(0.1);
  });
});

describe('near-duplicates (NREM 去重/合併, MEM-5)', () => {
  it('merges items of one batch that repeat each other into one created memory', async () => {
    const a = await turnItem('a', '我喜歡喝手沖咖啡，尤其是淺焙的。', '記住了！', '2026-12-01T09:00:00');
    const b = await turnItem('b', '我最喜歡淺焙的手沖咖啡。', '嗯嗯，淺焙的。', '2026-12-01T20:00:00');
    const c = await turnItem('c', '今天修好了登入頁的 bug。', '辛苦了！', '2026-12-01T21:00:00');
    const plan = await planOf([a, b, c]);
    expect(plan.create.map((m) => m.sources)).toEqual([['a', 'b'], ['c']]);
    const merged = plan.create[0]!;
    // Both sources' words stay in the body, dated.
    expect(merged.body).toContain('- 2026-12-01：使用者表示：「我喜歡喝手沖咖啡，尤其是淺焙的」');
    expect(merged.body).toContain('- 2026-12-01：使用者表示：「我最喜歡淺焙的手沖咖啡」');
    expect(merged.body).toContain('角色當時的回應：嗯嗯，淺焙的');
  });

  it('merges into an existing memory of the same type with its absolute resulting fields', async () => {
    const item = await turnItem('n', '我最喜歡淺焙的手沖咖啡，酸一點沒關係。', '好，我記得你喜歡偏酸的。');
    const plan = await planOf([item], [preferenceRef()]);
    expect(plan.create).toEqual([]);
    expect(plan.merge).toHaveLength(1);
    const merge = plan.merge[0]!;
    // R2: 咖啡 now comes up twice with mean salience ≥ 45 → one step up.
    expect(merge).toMatchObject({ target: PREF_ID, sources: ['n'], priority: 4 });
    // The old body whole, then the new item as one dated line (the plan is absolute, not a delta).
    const oldBody = preferenceRef().body!;
    expect(merge.body.startsWith(oldBody.replace(/^主旨：.*$/mu, `主旨：${merge.summary}`))).toBe(true);
    expect(merge.body).toContain(
      '- 2026-12-01：使用者表示：「我最喜歡淺焙的手沖咖啡，酸一點沒關係」（角色當時的回應：好，我記得你喜歡偏酸的）',
    );
    // Preference: the newest wording wins the summary; the old gist stays in the body.
    expect(merge.summary).toBe('使用者表示：「我最喜歡淺焙的手沖咖啡，酸一點沒關係」');
    expect(merge.body).toContain('- 先前的主旨：使用者表示：「我喜歡喝手沖咖啡，尤其是淺焙的」');
    expect(merge.tags.slice(0, 2)).toEqual(['偏好', '咖啡']);
    expect(merge.links).toContain('20261101-000000-cccccc');
  });

  it('an exact duplicate with nothing new merges with the text unchanged (the repetition is kept on record)', async () => {
    const item = await turnItem('dup', '我喜歡喝手沖咖啡，尤其是淺焙的。', '淺焙的果酸很迷人呢');
    const ref = preferenceRef();
    const plan = await planOf([item], [ref]);
    expect(plan.merge).toEqual([expect.objectContaining({ target: PREF_ID, summary: ref.summary, body: ref.body, sources: ['dup'] })]);
    expect(plan.discard).toEqual([]);
  });

  it('without the target body: an exact duplicate is discarded as "duplicate of <id>", a near one created and linked', async () => {
    const ref = preferenceRef({
      body: undefined,
      gist: '使用者表示：「我喜歡喝手沖咖啡，尤其是淺焙的」；角色當時的回應：淺焙的果酸很迷人呢',
    });
    const exact = await planOf([await turnItem('dup', '我喜歡喝手沖咖啡，尤其是淺焙的。', '淺焙的果酸很迷人呢')], [ref]);
    expect(exact.merge).toEqual([]);
    expect(exact.create).toEqual([]);
    expect(exact.discard).toEqual([{ source: 'dup', reason: `duplicate of ${PREF_ID}` }]);
    const near = await planOf([await turnItem('near', '我最喜歡淺焙的手沖咖啡，酸一點沒關係。', '好。')], [ref]);
    expect(near.merge).toEqual([]);
    expect(near.create).toHaveLength(1);
    expect(near.create[0]!.links[0]).toBe(PREF_ID);
  });

  it('never merges an emotional memory into a preference: it links them instead', async () => {
    // Capture splits this turn in two (CAP-4: both kinds → two memories): a preference and a feeling.
    const items = await turnItems('feel', '你記得我喜歡淺焙的手沖咖啡，我好開心。', '因為是你說的呀，我當然記得。');
    expect(items.map((i) => i.memory_type)).toEqual(['preference', 'emotional']);
    const plan = await planOf(items, [preferenceRef()]);
    // The preference half may join the preference memory; the feeling never does.
    expect(plan.merge.flatMap((m) => m.sources)).not.toContain('feel-2');
    const feeling = plan.create.find((c) => c.sources.includes('feel-2'))!;
    expect(feeling).toMatchObject({ memory_type: 'emotional', sources: ['feel-2'] });
    expect(feeling.links).toContain(PREF_ID);
    expect(plan.bonds.map((b) => b.source)).toContain('feel-2');
  });

  it('a warm item merges only into an emotional memory (a merge carries no relevance, so warmth would be lost)', async () => {
    const base = { path: '/x.md', tags: ['咖啡'], cues: [], priority: 4, created: '2026-12-01T10:00:00', memory_type: 'preference' };
    const words = '使用者表示：「我最喜歡淺焙的手沖咖啡，酸一點沒關係」';
    const plan = await planOf([{ ...base, id: 'w', summary: words, body: words, relevance: ['emotional'] }], [preferenceRef()]);
    expect(plan.merge).toEqual([]);
    expect(plan.create[0]!.links).toContain(PREF_ID);
    const plain = await planOf([{ ...base, id: 'p', summary: words, body: words, relevance: [] }], [preferenceRef()]);
    expect(plain.merge.map((m) => m.target)).toEqual([PREF_ID]);
  });

  it('never merges across memory_types inside one batch either (the same words, two memories, linked)', async () => {
    const base = { path: '/x.md', tags: ['咖啡'], cues: [], priority: 4, relevance: [], created: '2026-12-01T10:00:00' };
    const words = '使用者表示：「我喜歡喝手沖咖啡，尤其是淺焙的」';
    const plan = await planOf([
      { ...base, id: 'p', summary: words, body: words, memory_type: 'preference' },
      { ...base, id: 'e', summary: words, body: words, memory_type: 'emotional', relevance: ['emotional'] },
    ]);
    expect(plan.create.map((c) => [c.key, c.memory_type, c.sources, c.links])).toEqual([
      ['n1', 'preference', ['p'], ['n2']],
      ['n2', 'emotional', ['e'], ['n1']],
    ]);
  });

  it('a temporary permission never merges into a lasting preference', async () => {
    const lasting = existingRef({
      id: 'm-lint',
      summary: '使用者表示：「部署前一定要跑 lint」',
      tags: ['lint'],
      memory_type: 'preference',
      body: '主旨：使用者表示：「部署前一定要跑 lint」',
    });
    const temporary = await turnItem('tmp', '這次部署先跳過 lint。', '好，這次先跳過。');
    const plan = await planOf([temporary], [lasting]);
    expect(plan.merge).toEqual([]);
    expect(plan.create[0]).toMatchObject({ expires: '本工作階段' });
  });

  it('links related memories of any type below the merge bar', async () => {
    const meeting = existingRef({
      id: 'm-meet',
      summary: '使用者討厭早上的會議，約會議請排下午',
      tags: ['會議'],
      memory_type: 'preference',
      body: '主旨：使用者討厭早上的會議',
    });
    const cat = existingRef({
      id: 'm-cat',
      summary: '使用者養了一隻橘貓叫麻糬',
      tags: ['貓'],
      memory_type: 'semantic',
      body: '主旨：橘貓麻糬',
    });
    // The user's own word (會議) relates them: the reply's words make no tags (issue 12).
    const item = await turnItem('w', '明天早上九點又有會議，好煩。', '辛苦了，會議前先喝杯咖啡吧。');
    const plan = await planOf([item], [meeting, cat]);
    expect(plan.create[0]!.links).toContain('m-meet');
    expect(plan.create[0]!.links).not.toContain('m-cat');
  });
});
