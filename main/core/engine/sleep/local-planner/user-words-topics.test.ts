import { describe, expect, it } from 'vitest';
import { batchOf, plannerConfig, turnItem } from '../../../../../test/helpers/local-planner-inbox.js';
import { explainCandidates } from './explain-candidates.js';
import { createLocalPlanner } from './index.js';

/**
 * Issue 12, failure 4: small talk about lunch became a priority-4 `interest` memory because R2
 * (same topic twice) fired on a tag taken from the assistant's reply. Tags, topics and the
 * candidate rules come from what the user said; the role's words never promote a memory, so the
 * chat stays a `daily` episodic memory that FORGET-1 lets fade.
 */
const NOW = new Date('2026-12-01T23:30:00');

describe('topics and candidate rules come from the user words only', () => {
  it('two lunch chats whose replies share a word stay daily episodic memories, not a repeated interest', async () => {
    const first = await turnItem('lunch-1', '剛吃完排骨飯，好飽。', '排骨便當很香吧！便當配滷蛋最棒了。', '2026-12-01T12:30:00');
    const second = await turnItem(
      'lunch-2',
      '隔壁新開的雞腿飯還不錯。',
      '便當真的是忙碌時的好選擇，便當店的滷蛋也很入味。',
      '2026-12-01T13:00:00',
    );
    const batch = batchOf([first, second]);
    for (const item of [first, second]) expect(item.tags.map((tag) => tag.toLowerCase())).not.toContain('便當');
    for (const explained of explainCandidates(batch, NOW)) expect(explained.rules.map((r) => r.rule)).not.toContain('R2');
    const plan = await createLocalPlanner(plannerConfig()).plan(batch, 'p');
    expect(plan.create).toHaveLength(2);
    for (const created of plan.create) {
      expect(created).toMatchObject({ memory_type: 'episodic', priority: 3 });
      // daily or other: the categories FORGET-1 lets fade; never interest.
      expect(['daily', 'other']).toContain(created.category);
      expect(created.relevance).not.toContain('repeated');
    }
  });

  it("the reply's words choose no category: a lunch chat the role calls a hobby is not filed under interest", async () => {
    const chat = await turnItem('lunch-3', '中午吃了巷口的牛肉麵。', '你最近迷上那家店了吧？美食是你的興趣嗎？', '2026-12-01T12:30:00');
    expect(chat.memory_type).toBe('episodic');
    const plan = await createLocalPlanner(plannerConfig()).plan(batchOf([chat]), 'p');
    expect(plan.create[0]!.category).not.toBe('interest');
  });

  it('an inbox item whose tags came from the reply (an older capture, or a model) does not count those tags as topics', async () => {
    const item = (id: string, user: string, reply: string) => ({
      id,
      path: `/inbox/${id}.md`,
      summary: `使用者提到：「${user}」`,
      body: `- 使用者原話：${user}\n- 角色當時的回應：${reply}`,
      tags: ['便當', '滷蛋'],
      cues: [],
      priority: 3,
      memory_type: 'episodic',
      relevance: [],
      created: '2026-12-01T12:30:00',
    });
    const batch = batchOf([
      item('a', '剛吃完排骨飯，好飽。', '排骨便當配滷蛋最棒了。'),
      item('b', '隔壁新開的雞腿飯還不錯。', '便當店的滷蛋也很入味。'),
    ]);
    for (const explained of explainCandidates(batch, NOW)) expect(explained.rules.map((r) => r.rule)).not.toContain('R2');
    const plan = await createLocalPlanner(plannerConfig()).plan(batch, 'p');
    for (const created of plan.create) expect(['daily', 'other']).toContain(created.category);
  });
});
