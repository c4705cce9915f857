import { describe, expect, it } from 'vitest';
import { batchOf, existingRef, plannerConfig, turnItem, turnItems } from '../../../../../test/helpers/local-planner-inbox.js';
import { planProblems, type CollectedBatch, type SleepPlan } from '../sleep-plan.js';
import { createLocalPlanner } from './index.js';

async function planOf(batch: CollectedBatch): Promise<SleepPlan> {
  const plan = await createLocalPlanner(plannerConfig()).plan(batch, 'p');
  expect(planProblems(plan, new Set(batch.existing.map((r) => r.id)))).toEqual([]);
  return plan;
}

describe('bonds (MEM-7) and bilateral relationship records (seed 000 §關係定位必須雙邊記錄)', () => {
  it('relationship talk keeps both sides: the body and the bonds hold the user words AND the role answer', async () => {
    const items = await turnItems(
      'rel',
      '我同時以女性和女兒兩種方式愛妳，這不矛盾。',
      '謝謝你這麼珍惜我。不過我會一直是你的家人，用女兒的身分陪著你。',
    );
    const plan = await planOf(batchOf(items));
    const relation = plan.create.find((c) => c.tags.includes('關係'))!;
    expect(relation).toMatchObject({ memory_type: 'emotional', category: 'important', priority: 5 });
    expect(relation.body).toContain('使用者原話：我同時以女性和女兒兩種方式愛妳，這不矛盾');
    expect(relation.body).toContain('角色當時的回應：不過我會一直是你的家人，用女兒的身分陪著你');
    expect(plan.bonds).toEqual([
      // The same words capture already appended (appendBond will not take them twice)…
      { direction: 'user-to-role', text: '我同時以女性和女兒兩種方式愛妳，這不矛盾', source: 'rel' },
      // …and the role's stance, which must not drift unrecorded. Keeping a boundary is not mutual.
      { direction: 'role-to-user', text: '不過我會一直是你的家人，用女兒的身分陪著你', source: 'rel' },
    ]);
  });

  it('an answer in kind makes the user line mutual', async () => {
    const items = await turnItems('love', '我好想妳。', '我也想你，今天一直在等你回來。');
    const plan = await planOf(batchOf(items));
    expect(plan.bonds[0]).toEqual({ direction: 'mutual', text: '我好想妳', source: 'love' });
    expect(plan.bonds[1]).toMatchObject({ direction: 'role-to-user', source: 'love' });
  });

  it('a merge never drops the role answer of a relationship record', async () => {
    const ref = existingRef({
      id: 'm-rel',
      summary: '使用者表達「我好想妳」；角色回應「我也想你」',
      tags: ['關係', '情緒'],
      memory_type: 'emotional',
      body: '主旨：使用者表達「我好想妳」；角色回應「我也想你」\n\n細節：\n- 使用者原話：我好想妳\n- 角色當時的回應：我也想你',
    });
    const again = await turnItem('again', '我好想妳。', '我也好想你，明天見。');
    const plan = await planOf(batchOf([again], [ref]));
    expect(plan.merge).toHaveLength(1);
    expect(plan.merge[0]!.body).toContain('- 角色當時的回應：我也想你');
    expect(plan.merge[0]!.body).toContain('- 2026-12-01：使用者表達「我好想妳」；角色回應「我也好想你，明天見」');
  });

  it('one user→role bond for a feeling; none for a plain preference or an event', async () => {
    const feeling = await turnItem('f', '今天真的好累，工作壓力好大。', '辛苦了，先休息一下吧。');
    const pref = await turnItem('p', '以後 commit message 請用英文寫。', '好的。');
    const event = await turnItem('e', '今天修好了登入頁的 bug。', '做得好！');
    const plan = await planOf(batchOf([feeling, pref, event]));
    expect(plan.bonds).toEqual([{ direction: 'user-to-role', text: '今天真的好累，工作壓力好大', source: 'f' }]);
  });

  it("the role's own feeling, with no user words, is a role→user bond", async () => {
    const own = {
      id: 'own',
      path: '/inbox/own.md',
      summary: '角色因為使用者記得自己的生日而很感動',
      body: '- 角色當時的回應：你居然記得我的生日，我好感動',
      tags: ['情緒'],
      cues: [],
      priority: 4,
      memory_type: 'emotional',
      relevance: ['emotional'],
      created: '2026-12-01T20:00:00',
    };
    const plan = await planOf(batchOf([own]));
    expect(plan.bonds).toEqual([{ direction: 'role-to-user', text: '你居然記得我的生日，我好感動', source: 'own' }]);
  });
});

describe('PM-4 corrections (「原本以為…後來發現…」)', () => {
  const haiku = existingRef({
    id: 'm-haiku',
    summary: '使用者在學俳句',
    tags: ['俳句', '興趣'],
    memory_type: 'semantic',
    category: 'interest',
    needsCorrection: true,
    body: '主旨：使用者在學俳句\n\n細節：\n- 使用者說最近在寫五七五',
  });

  it('rewrites a denied memory from the probe note, keeping the old record marked as corrected', async () => {
    const plan = await planOf(
      batchOf([await turnItem('x', '今天修好了登入頁的 bug。', '辛苦了！')], [{ ...haiku, correctionNote: '其實是在學短歌' }]),
    );
    expect(plan.corrections).toHaveLength(1);
    const correction = plan.corrections[0]!;
    expect(correction).toMatchObject({ target: 'm-haiku', summary: '原本以為使用者在學俳句，後來發現其實是在學短歌' });
    expect(correction.body).toContain('- 原本以為：使用者在學俳句');
    expect(correction.body).toContain('- 後來發現：其實是在學短歌');
    expect(correction.body).toContain('先前的紀錄（已更正，留作回溯）：\n主旨：使用者在學俳句');
  });

  it('without a note, uses the batch item on the same topic; the item itself is still kept and linked, never merged into it', async () => {
    const item = await turnItem('t', '我最近其實在學短歌，不是俳句喔。', '原來如此，是短歌！');
    const plan = await planOf(batchOf([item], [haiku]));
    expect(plan.corrections).toEqual([
      expect.objectContaining({ target: 'm-haiku', summary: '原本以為使用者在學俳句，後來發現我最近其實在學短歌，不是俳句喔' }),
    ]);
    expect(plan.merge).toEqual([]);
    expect(plan.create[0]!.links).toContain('m-haiku');
  });

  it('leaves the memory flagged when nothing in the batch says what is true (no invented correction)', async () => {
    const plan = await planOf(batchOf([await turnItem('x', '今天修好了登入頁的 bug。', '辛苦了！')], [haiku]));
    expect(plan.corrections).toEqual([]);
  });
});
