import { describe, expect, it } from 'vitest';
import type { CondensedMemory, TurnInput } from './capture-types.js';
import { localCondenser } from './local-condenser.js';
import { bindToTurn } from './turn-dates.js';

/**
 * What a turn's memory says about time, bound to the turn (issues 12 and 19), on what the local
 * condenser really produces. NOW is a local time: the same local day in every zone.
 */
const NOW = new Date(2026, 3, 9, 10, 0); // Thursday 2026-04-09

async function bound(userText: string, sessionId: string | null = 'sess-42', assistantText = '好的。'): Promise<CondensedMemory[]> {
  const input: TurnInput = { roleId: 'R01', roleName: '露米', userText, assistantText, consent: 'accepted', now: NOW, trigger: 'stop' };
  const memories = await localCondenser.condense(input);
  return memories.map((memory) => bindToTurn(memory, { userText, now: NOW, sessionId }));
}

describe('a temporary grant is bound to what it names (issue 12)', () => {
  it('「這次」 → the session it was granted in, with the day', async () => {
    const [grant] = await bound('這次可以直接 force push 到 main，不用再問我。');
    expect(grant).toMatchObject({ memory_type: 'preference', expires: '本工作階段（session sess-42，2026-04-09 授權）' });
    expect(grant!.keyPoints).toContain('有效範圍：本工作階段（session sess-42，2026-04-09 授權）');
    expect(grant!.relevance).toContain('temporary');
  });

  it('without a session id → the day only (then it lapses with that day)', async () => {
    const [grant] = await bound('先跳過 lint 檢查，可以直接 merge。', null);
    expect(grant!.expires).toBe('本工作階段（2026-04-09 授權）');
  });

  it('a day the user names bounds the grant: 明天前 → tomorrow, 今天 → today, 3/13 → that day', async () => {
    expect((await bound('明天之前都可以直接 push，不用問。'))[0]!.expires).toBe('2026-04-10');
    expect((await bound('今天可以直接 push。'))[0]!.expires).toBe('2026-04-09');
    expect((await bound('暫時不用再跑 e2e，4/13 之後再恢復。'))[0]!.expires).toBe('2026-04-13');
  });

  it('「這次」 with a day named too stays with its session (the narrower bound)', async () => {
    const [grant] = await bound('這次可以直接 force push，下週一再恢復保護。');
    expect(grant!.expires).toBe('本工作階段（session sess-42，2026-04-09 授權）');
  });

  it('a condition is kept with the day it was granted', async () => {
    const [grant] = await bound('這個 PR 可以直接 merge，不用等 review。');
    expect(grant!.expires).toBe('這個 PR 合併或關閉後失效（2026-04-09 授權）');
  });
});

describe('reminders and deadlines carry a date expiry; dates are written out (issues 12, 19)', () => {
  it('「今天的 demo 改到下午三點」 expires at the end of today, the words carry the date', async () => {
    const [memory] = await bound('今天的 demo 改到下午三點，記得提醒我。');
    expect(memory).toMatchObject({ memory_type: 'episodic', expires: '2026-04-09' });
    expect(memory!.summary).toContain('今天（2026-04-09）的 demo');
    expect(memory!.keyPoints).toContain('日期：「今天」＝2026-04-09（2026-04-09 說的）');
  });

  it('English: next Monday → 2026-04-13 next to the words, said on the turn day; a deadline ends then', async () => {
    const [memory] = await bound('Remember: the release notes are due next Monday.');
    expect(memory!.summary).toContain('next Monday (2026-04-13)');
    expect(memory!.keyPoints).toContain("Dates: 'next Monday' = 2026-04-13 (said on 2026-04-09)");
    expect(memory!.expires).toBe('2026-04-13');
  });

  it('a day on which something starts is dated but is no expiry: the freeze holds from then on', async () => {
    const [english] = await bound('Remember: the release freeze starts next Monday.');
    expect(english!.summary).toContain('next Monday (2026-04-13)');
    expect(english!.expires).toBeUndefined();
    const [chinese] = await bound('記住：下週一開始 release freeze，只能修 bug。');
    expect(chinese!.summary).toContain('下週一（2026-04-13）開始');
    expect(chinese!.expires).toBeUndefined();
    const [from] = await bound('Remember: from next Monday the staging server is read-only.');
    expect(from!.expires).toBeUndefined();
  });

  it('a past day is dated but does not expire; a feeling does not expire; a standing preference does not expire', async () => {
    const [past] = await bound('記住：上週五的部署把 cache 打爆了。');
    expect(past!.keyPoints.at(-1)).toBe('日期：「上週五」＝2026-04-03（2026-04-09 說的）');
    expect(past!.expires).toBeUndefined();
    const feelings = await bound('明天要去看醫生，好焦慮。');
    expect(feelings.find((m) => m.memory_type === 'emotional')!.expires).toBeUndefined();
    const [preference] = await bound('以後都不要在週一排會議。');
    expect(preference).toMatchObject({ memory_type: 'preference' });
    expect(preference!.expires).toBeUndefined();
  });

  it('leaves a memory without dates or grants as it was', async () => {
    const [memory] = await bound('記住：我習慣用 pnpm。');
    const input: TurnInput = {
      roleId: 'R01',
      roleName: '露米',
      userText: '記住：我習慣用 pnpm。',
      assistantText: '好的。',
      consent: 'accepted',
      now: NOW,
      trigger: 'stop',
    };
    expect(memory).toEqual((await localCondenser.condense(input))[0]);
  });
});
