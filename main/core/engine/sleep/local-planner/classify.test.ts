import { describe, expect, it } from 'vitest';
import { batchOf, plannerConfig, turnItem, turnItems } from '../../../../../test/helpers/local-planner-inbox.js';
import type { InboxItem, PlanCreate } from '../sleep-plan.js';
import { createLocalPlanner } from './index.js';

async function createdFrom(items: InboxItem[]): Promise<PlanCreate[]> {
  const plan = await createLocalPlanner(plannerConfig()).plan(batchOf(items), 'p');
  return plan.create;
}

async function classify(user: string, reply: string): Promise<PlanCreate> {
  const created = await createdFrom([await turnItem('c', user, reply)]);
  expect(created).toHaveLength(1);
  return created[0]!;
}

describe('classification into the six categories (NREM) and memory_type/declarative (REM)', () => {
  it.each([
    ['以後回覆請用繁體中文，不要用簡體。', '好的。', 'important', 'preference', 'explicit'],
    [
      '部署步驟：先跑 npm run build，再用 scp 把 dist 傳到伺服器，最後重啟 pm2。',
      '了解，我把流程記下來了。',
      'skill',
      'procedural',
      'implicit',
    ],
    ['Node 24 新版發布了，內建支援 TypeScript 型別剝除。', '這個更新很實用！', 'news', 'semantic', 'explicit'],
    ['我最近迷上看動畫，尤其是芙莉蓮。', '芙莉蓮很好看呢～', 'interest', 'episodic', 'explicit'],
    ['今天修好了登入頁的 bug，順便把 test 補齊。', '辛苦了。', 'daily', 'episodic', 'explicit'],
    ['那家拉麵店的湯頭偏鹹。', '下次可以請店家調淡一點。', 'other', 'episodic', 'explicit'],
    ['今天真的好累，工作壓力好大。', '辛苦了，先休息一下吧。', 'daily', 'emotional', 'implicit'],
    // Background the user states about themselves is a semantic fact about them (issue 12).
    ['我是後端工程師，在新竹上班。', '了解！', 'important', 'semantic', 'explicit'],
  ])('%s → %s / %s', async (user, reply, category, memoryType, declarative) => {
    expect(await classify(user, reply)).toMatchObject({ category, memory_type: memoryType, declarative });
  });

  it('keeps the capture memory_type: a feeling stays emotional even next to preference words', async () => {
    const items = await turnItems('both', '謝謝你，剛剛那樣說讓我很開心，以後也這樣跟我說話。', '嘿嘿，我會的 😊');
    const created = await createdFrom(items);
    expect(created.map((c) => c.memory_type).sort()).toEqual(['emotional', 'preference']);
    const feeling = created.find((c) => c.memory_type === 'emotional')!;
    // Feedback on the role is important; a warm memory has priority ≥ 4 and relevance emotional.
    expect(feeling).toMatchObject({ category: 'important', declarative: 'implicit' });
    expect(feeling.priority).toBeGreaterThanOrEqual(4);
    expect(feeling.relevance).toContain('emotional');
  });

  it('refines the type when the inbox file has none (a hand-written or old item)', async () => {
    const base = { path: '/inbox/x.md', tags: [], cues: [], priority: 3, relevance: [], created: '2026-12-01T10:00:00' };
    const created = await createdFrom([
      { ...base, id: 'a', summary: '想念奶奶做的菜，有點難過', body: '想念奶奶做的菜，有點難過', memory_type: '' },
      { ...base, id: 'b', summary: '以後程式碼註解請用英文', body: '以後程式碼註解請用英文', memory_type: 'unknown' },
      { ...base, id: 'c', summary: '絕對不要把 .env 推上 git', body: '絕對不要把 .env 推上 git', memory_type: '' },
    ]);
    const byKey = Object.fromEntries(created.map((c) => [c.sources[0], c]));
    expect(byKey.a).toMatchObject({ memory_type: 'emotional', declarative: 'implicit' });
    expect(byKey.a!.relevance).toContain('emotional');
    expect(byKey.b).toMatchObject({ memory_type: 'preference', category: 'important' });
    // R4 boundary words → a rule, priority 5, with retrieval cues (rules must have cues).
    expect(byKey.c).toMatchObject({ memory_type: 'rule', category: 'important', priority: 5 });
    expect(byKey.c!.cues.length).toBeGreaterThan(0);
  });

  it('keeps expires and marks the memory temporary; an event today does not become a permanent rule', async () => {
    const [item] = await turnItems('tmp', '這次先跳過 lint 檢查，不要卡住部署。', '好，這次先跳過。');
    expect(item!.expires).toBe('本工作階段');
    const [created] = await createdFrom([item!]);
    expect(created).toMatchObject({ expires: '本工作階段', memory_type: 'preference' });
    expect(created!.relevance).toContain('temporary');
    // 不要 is an R4 word, but a temporary permission is no commitment.
    expect(created!.priority).toBeLessThan(5);
  });

  it('writes PM-1 bodies: 主旨 then 細節 with the key points and the 依據 line', async () => {
    const created = await classify('我最近迷上看動畫，尤其是芙莉蓮。', '芙莉蓮很好看呢～');
    expect(created.body.split('\n').slice(0, 3)).toEqual([`主旨：${created.summary}`, '', '細節：']);
    expect(created.body).toContain('- 使用者原話：我最近迷上看動畫，尤其是芙莉蓮');
    expect(created.body).toContain('- 角色當時的回應：芙莉蓮很好看呢～');
    expect(created.body).toMatch(/^依據：2026-12-01 的對話/mu);
  });
});
