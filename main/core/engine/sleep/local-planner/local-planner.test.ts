import { describe, expect, it } from 'vitest';
import { batchOf, existingRef, plannerConfig, turnItems } from '../../../../../test/helpers/local-planner-inbox.js';
import { PlannerError, planProblems, sleepPlanSchema, type ExistingMemoryRef, type InboxItem, type SleepPlan } from '../sleep-plan.js';
import { createLocalPlanner } from './index.js';

/** A realistic evening: a preference, a feeling, relationship talk, a how-to, small talk, news. */
async function eveningItems(): Promise<InboxItem[]> {
  return [
    ...(await turnItems('t1', '以後回覆請用繁體中文，不要用簡體。', '好的，之後都用繁體中文回覆你。', '2026-12-01T09:10:00')),
    ...(await turnItems('t2', '今天真的好累，工作壓力好大。', '辛苦了，先休息一下吧。', '2026-12-01T20:00:00')),
    ...(await turnItems(
      't3',
      '我同時以女性和女兒兩種方式愛妳，這不矛盾。',
      '謝謝你這麼珍惜我。不過我會一直是你的家人，用女兒的身分陪著你。',
      '2026-12-01T21:00:00',
    )),
    ...(await turnItems(
      't4',
      '部署步驟：先跑 npm run build，再用 scp 把 dist 傳到伺服器，最後重啟 pm2。',
      '了解，我把流程記下來了。',
      '2026-12-01T21:30:00',
    )),
    ...(await turnItems('t5', '嗨～', '嗨！今天過得好嗎？', '2026-12-01T22:00:00')),
    ...(await turnItems('t6', 'Node 24 新版發布了，內建支援 TypeScript 型別剝除。', '這個更新很實用！', '2026-12-01T22:10:00')),
  ];
}

const existing: ExistingMemoryRef[] = [
  existingRef({
    id: '20261120-090000-aaaaaa',
    summary: '使用者表示：「以後回覆請用繁體中文，不要用簡體」',
    tags: ['偏好', '繁體中文'],
    body: '主旨：使用者表示：「以後回覆請用繁體中文，不要用簡體」\n\n細節：\n- 使用者原話：以後回覆請用繁體中文，不要用簡體\n- 角色當時的回應：好的',
  }),
  existingRef({
    id: '20261121-090000-bbbbbb',
    summary: '使用者喜歡淺焙的手沖咖啡',
    tags: ['咖啡'],
    body: '主旨：使用者喜歡淺焙的手沖咖啡',
  }),
];

function assertSound(plan: SleepPlan, refs: readonly ExistingMemoryRef[]): void {
  expect(() => sleepPlanSchema.parse(plan)).not.toThrow();
  expect(planProblems(plan, new Set(refs.map((ref) => ref.id)))).toEqual([]);
}

describe('local planner (X-LOCAL)', () => {
  it('is named local and returns a plan that passes the schema and planProblems', async () => {
    const planner = createLocalPlanner(plannerConfig());
    expect(planner.name).toBe('local');
    const items = await eveningItems();
    const plan = await planner.plan(batchOf(items, existing), 'plan-1');
    assertSound(plan, existing);
    expect(plan).toMatchObject({ v: 1, id: 'plan-1', role: 'LUMI01', planner: 'local' });
    expect(plan.batch).toEqual(items.map((item) => item.id));
    // Everything is accounted for: the greeting is discarded, the repeated preference merged.
    expect(plan.discard.map((d) => d.source)).toEqual(['t5']);
    expect(plan.merge.map((m) => m.target)).toEqual(['20261120-090000-aaaaaa']);
    expect(plan.create.length).toBe(4);
  });

  it('is deterministic: the same batch gives byte-identical JSON, from a fresh or a used planner', async () => {
    const items = await eveningItems();
    const first = createLocalPlanner(plannerConfig());
    const a = JSON.stringify(await first.plan(batchOf(items, existing), 'p'));
    // The same planner again (its feature cache is warm now) and a new one.
    const b = JSON.stringify(await first.plan(batchOf(structuredClone(items), structuredClone(existing)), 'p'));
    const c = JSON.stringify(await createLocalPlanner(plannerConfig()).plan(batchOf(items, existing), 'p'));
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('takes its time from config.clock only (KIOKU_NOW): the corrections say which day they were made', async () => {
    const refs = [
      existingRef({
        id: 'm-haiku',
        summary: '使用者在學俳句',
        memory_type: 'semantic',
        needsCorrection: true,
        correctionNote: '其實是在學短歌',
      }),
    ];
    const items = await turnItems('x1', '今天修好了登入頁的 bug。', '辛苦了！');
    const early = await createLocalPlanner(plannerConfig('2026-12-01T23:00:00')).plan(batchOf(items, refs), 'p');
    const late = await createLocalPlanner(plannerConfig('2027-01-05T23:00:00')).plan(batchOf(items, refs), 'p');
    expect(early.corrections[0]!.body).toContain('2026-12-01 整理時更正');
    expect(late.corrections[0]!.body).toContain('2027-01-05 整理時更正');
  });

  it('every item of 1,000 lands in exactly one place, in batches of 4 against 120 existing memories', async () => {
    const topics = ['咖啡', '部署', '測試', '貓', '媽媽', '會議', '動畫', '睡眠', '旅行', '資料庫', '前端', 'docker'];
    const starts = ['今天又提到', '以後都要記得', '好開心聊到', '有點擔心', '昨天處理了', '想學更多關於'];
    const types = ['episodic', 'preference', 'emotional', 'semantic'];
    const refs = Array.from({ length: 120 }, (_, k) =>
      existingRef({
        id: `m${k}`,
        summary: `使用者提到：「${starts[k % 6]}${topics[k % 12]}的事，編號 ${k}」`,
        tags: [topics[k % 12]!],
        memory_type: types[k % 4]!,
        ...(k % 2 ? { body: `主旨：${topics[k % 12]}\n\n細節：\n- 第 ${k} 則` } : {}),
      }),
    );
    const item = (i: number): InboxItem => {
      const topic = topics[i % 12]!;
      const words = `${starts[(i * 7) % 6]}${topic}的事情，第 ${i % 13} 次，和${topics[(i * 3) % 12]}有關`;
      return {
        id: `i${i}`,
        path: `/inbox/i${i}.md`,
        summary: i % 97 === 0 ? '使用者表示：「ok」' : `使用者提到：「${words}」`,
        body: `- 使用者原話：${words}\n- 角色當時的回應：好的，我記住了。`,
        tags: [topic],
        cues: [],
        priority: 1 + (i % 5),
        memory_type: types[i % 4]!,
        relevance: i % 3 ? [] : ['emotional'],
        created: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00`,
      };
    };
    const planner = createLocalPlanner(plannerConfig());
    const seen = new Map<string, number>();
    let merges = 0;
    for (let b = 0; b < 250; b += 1) {
      const items = Array.from({ length: 4 }, (_, k) => item(b * 4 + k));
      const plan = await planner.plan(batchOf(items, refs, 1000 - (b + 1) * 4), `p${b}`);
      assertSound(plan, refs);
      for (const id of [
        ...plan.create.flatMap((c) => c.sources),
        ...plan.merge.flatMap((m) => m.sources),
        ...plan.discard.map((d) => d.source),
      ]) {
        seen.set(id, (seen.get(id) ?? 0) + 1);
      }
      merges += plan.merge.length;
      // Only refs that carry their body are merge targets (a merge is absolute).
      for (const m of plan.merge) expect(refs.find((r) => r.id === m.target)!.body).toBeDefined();
    }
    expect(seen.size).toBe(1000);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(merges).toBeGreaterThan(0);
  });

  it('turns odd hand-written inbox files into a sound plan (no summary, unknown type, bad date, blank tags)', async () => {
    const odd = (id: string, fields: Partial<InboxItem>): InboxItem => ({
      id,
      path: `/inbox/${id}.md`,
      summary: '',
      body: '',
      tags: [],
      cues: [],
      priority: 3,
      memory_type: 'episodic',
      relevance: [],
      created: '',
      ...fields,
    });
    const items = [
      odd('o1', { body: '只有內文，沒有摘要。第二句。' }),
      odd('o2', { summary: '型態不明的記錄', memory_type: 'canon', priority: Number.NaN, tags: ['  ', '測試'] }),
      odd('o3', { summary: '日期壞掉', created: 'not a date', relevance: ['', 'explicit'] }),
      odd('o4', { summary: '很長的記錄', body: '細節'.repeat(20_000) }),
      odd('o5', { summary: '   ', body: '   ' }),
    ];
    const plan = await createLocalPlanner(plannerConfig()).plan(batchOf(items, existing), 'p');
    assertSound(plan, existing);
    expect(plan.create.find((c) => c.sources.includes('o1'))!.summary).toBe('只有內文，沒有摘要。第二句');
    expect(plan.discard).toEqual([{ source: 'o5', reason: 'noise: 清理後沒有內容' }]);
  });

  it('rejects an empty batch and a cancelled run with a PlannerError (the inbox stays as it is)', async () => {
    const planner = createLocalPlanner(plannerConfig());
    await expect(planner.plan(batchOf([]), 'p')).rejects.toBeInstanceOf(PlannerError);
    const controller = new AbortController();
    controller.abort();
    const items = await turnItems('c1', '我喜歡貓。', '貓很可愛！');
    await expect(planner.plan(batchOf(items), 'p', controller.signal)).rejects.toMatchObject({ kind: 'execution' });
  });

  it('writes the digest in zh-TW with the counts and the main topics', async () => {
    const items = await eveningItems();
    const plan = await createLocalPlanner(plannerConfig()).plan(batchOf(items, existing), 'p');
    expect(plan.digest).toMatch(/^整理了 6 則：新增 4、合併 1、捨棄 1。/u);
    expect(plan.digest).toMatch(/主要主題：繁體中文、工作、女兒。$/u);
  });
});
