import { describe, expect, it } from 'vitest';
import { batchOf, existingRef, plannerConfig, turnItem } from '../../../../../test/helpers/local-planner-inbox.js';
import type { CollectedBatch, InboxItem, SleepPlan } from '../sleep-plan.js';
import { explainCandidates } from './explain-candidates.js';
import { createLocalPlanner } from './index.js';

const NOW = new Date('2026-12-01T23:30:00');
const rulesOf = (batch: CollectedBatch, id: string) =>
  explainCandidates(batch, NOW)
    .find((e) => e.id === id)!
    .rules.map((r) => r.rule);
const planOf = (batch: CollectedBatch): Promise<SleepPlan> => createLocalPlanner(plannerConfig()).plan(batch, 'p');

function item(id: string, summary: string, extra: Partial<InboxItem> = {}): InboxItem {
  return {
    id,
    path: `/inbox/${id}.md`,
    summary,
    body: `- 使用者原話：${summary}`,
    tags: [],
    cues: [],
    priority: 3,
    memory_type: 'episodic',
    relevance: [],
    created: '2026-12-01T20:00:00',
    ...extra,
  };
}

describe('PM-3 candidate rules (seed 001 R1…R6), shown per item', () => {
  it('R1: salience ≥ 60 (priority 4, or 3 with explicit + emotional)', () => {
    const batch = batchOf([item('hi', '使用者要求記住專案代號是藍鯨', { priority: 4 }), item('lo', '使用者提到午餐吃了便當')]);
    expect(rulesOf(batch, 'hi')).toContain('R1');
    expect(explainCandidates(batch, NOW).find((e) => e.id === 'hi')).toMatchObject({ salience: 60, suggested: 'event' });
    expect(rulesOf(batch, 'lo')).not.toContain('R1');
  });

  it('R2: the same topic three times, or twice with mean salience ≥ 45 → repeated, filed under interest', async () => {
    const three = batchOf(
      [
        item('a', '使用者說家裡的貓今天又打翻水杯', { tags: ['貓'], priority: 2 }),
        item('b', '使用者分享貓咪睡在鍵盤上的照片', { tags: ['貓'], priority: 2 }),
      ],
      [existingRef({ id: 'm-cat', summary: '使用者養了一隻橘貓', tags: ['貓'], memory_type: 'semantic', priority: 2 })],
    );
    expect(rulesOf(three, 'a')).toContain('R2');
    expect(explainCandidates(three, NOW)[0]!.suggested).toBe('preference');
    const plan = await planOf(three);
    const cat = plan.create.find((c) => c.sources.includes('a'))!;
    expect(cat.category).toBe('interest');
    expect(cat.relevance).toContain('repeated');
    expect(cat.priority).toBe(3);
    // Two low-salience items (mean 30) are not enough; two everyday ones (mean 45) are.
    const lowPair = batchOf([
      item('c', '使用者提到週末去爬山', { tags: ['爬山'], priority: 2 }),
      item('d', '使用者說爬山腳很痠', { tags: ['爬山'], priority: 2 }),
    ]);
    expect(rulesOf(lowPair, 'c')).not.toContain('R2');
    const pair = batchOf([item('c', '使用者提到週末去爬山', { tags: ['爬山'] }), item('d', '使用者說爬山腳很痠', { tags: ['爬山'] })]);
    expect(rulesOf(pair, 'c')).toContain('R2');
  });

  it('R3: emotional change ≥ 25 → an event with an emotion anchor (warm)', async () => {
    const tired = await turnItem('tired', '今天真的好累，工作壓力好大。', '辛苦了，先休息一下吧。');
    const mild = item('mild', '使用者說有點開心');
    const batch = batchOf([tired, mild]);
    expect(rulesOf(batch, 'tired')).toContain('R3');
    expect(rulesOf(batch, 'mild')).not.toContain('R3');
    const plan = await planOf(batch);
    const created = plan.create.find((c) => c.sources.includes('tired'))!;
    expect(created.body).toMatch(/^情緒錨點：累、壓力（情緒變動 \d+）$/mu);
    expect(created.cues).toEqual(expect.arrayContaining(['累', '壓力']));
    expect(created.relevance).toContain('emotional');
  });

  it('R4: commitment and boundary words → promise/boundary, priority 5, important', async () => {
    const promise = await turnItem('promise', '我答應你，下週一定會把文件寫完。', '好，我會提醒你的。');
    const boundary = await turnItem('boundary', '絕對不要把 .env 推上 git。', '收到，我不會推 .env。');
    const batch = batchOf([promise, boundary]);
    const explained = explainCandidates(batch, NOW);
    expect(explained.map((e) => [e.id, e.rules.some((r) => r.rule === 'R4'), e.suggested])).toEqual([
      ['promise', true, 'promise'],
      ['boundary', true, 'boundary'],
    ]);
    const plan = await planOf(batch);
    for (const created of plan.create) expect(created).toMatchObject({ priority: 5, category: 'important' });
  });

  it('R5: the same person twice (written the same way) → relationship: tagged, linked, important', async () => {
    const a = await turnItem('a', '我媽媽下週要來台北玩。', '太好了，可以帶她去走走。');
    const b = await turnItem('b', '我媽媽很喜歡吃鳳梨酥。', '那可以買鳳梨酥給她當伴手禮。');
    const c = await turnItem('c', '林先生說報告要延後。', '了解。');
    const batch = batchOf([a, b, c]);
    expect(rulesOf(batch, 'a')).toContain('R5');
    expect(rulesOf(batch, 'c')).not.toContain('R5');
    const plan = await planOf(batch);
    const first = plan.create.find((x) => x.sources.includes('a'))!;
    const second = plan.create.find((x) => x.sources.includes('b'))!;
    expect(first.tags).toContain('媽媽');
    expect(first.category).toBe('important');
    expect(first.links).toContain(second.key);
  });

  it('R6: under capacity pressure the lowest salience goes — never today, never a commitment, never a warm item', async () => {
    const old = { created: '2026-11-20T10:00:00', priority: 1 };
    const items = [
      item('stale', '使用者提到隨手記下的一個網址', old),
      item('today', '使用者提到隨手記下的另一個網址', { priority: 1 }),
      item('promise', '使用者答應明天回覆信件', old),
      item('warm', '使用者說有點寂寞', { ...old, relevance: ['emotional'] }),
    ];
    const pressed = batchOf(items, [], 40);
    const explained = explainCandidates(pressed, NOW);
    expect(explained.find((e) => e.id === 'stale')!.discard).toMatch(/^capacity \(R6\)/u);
    for (const id of ['today', 'promise', 'warm']) expect(explained.find((e) => e.id === id)!.discard).toBeUndefined();
    const plan = await planOf(pressed);
    expect(plan.discard).toEqual([{ source: 'stale', reason: expect.stringMatching(/^capacity \(R6\): 待整理 44 則，顯著度 15 < 40$/u) }]);
    // Without pressure nothing is evicted.
    expect((await planOf(batchOf(items))).discard).toEqual([]);
  });
});

describe('noise (NREM 去噪)', () => {
  it.each([
    ['嗨～', '嗨！今天過得好嗎？'],
    ['ok', '好的！'],
    ['謝謝！', '不客氣 😊'],
    ['早安 👋', '早安～'],
  ])('discards %s with a reason', async (user, reply) => {
    const plan = await planOf(batchOf([await turnItem('n', user, reply)]));
    expect(plan.create).toEqual([]);
    expect(plan.bonds).toEqual([]);
    expect(plan.discard).toEqual([{ source: 'n', reason: 'noise: 只有問候、應答或客套話' }]);
  });

  it('discards an item with nothing left after cleaning', async () => {
    const plan = await planOf(batchOf([item('e', '！！！', { body: '   ' })]));
    expect(plan.discard).toEqual([{ source: 'e', reason: 'noise: 清理後沒有內容' }]);
  });

  it('keeps thanks that say what for, and anything the user asked to keep', async () => {
    const plan = await planOf(
      batchOf([await turnItem('t', '謝謝你幫我把登入的 bug 修好！', '不客氣～'), item('k', '好', { relevance: ['explicit'] })]),
    );
    expect(plan.discard).toEqual([]);
  });
});
