import { describe, expect, it } from 'vitest';
import { localCondenser } from '../../main/core/engine/capture/local-condenser.js';
import { formatLocalDate } from '../../main/core/platform/config/clock.js';
import { turnInput } from './capture-test-helpers.js';

/** 「今天」 is the local day of the turn (turnInput's now), whatever time zone runs the tests. */
const TODAY = formatLocalDate(turnInput('').now);
const condense = (user: string, reply = '', extra = {}) => localCondenser.condense(turnInput(user, reply, extra));

describe('local condenser: CAP-4 encoding rules', () => {
  it('behaviour to change → preference', async () => {
    const [memory, ...rest] = await condense('以後都用繁體中文回覆，不要用簡體。', '好的，之後都用繁體中文。');
    expect(rest).toEqual([]);
    expect(memory).toMatchObject({ memory_type: 'preference', category: 'important', relevance: ['future'] });
    expect(memory!.summary).toBe('使用者表示：「以後都用繁體中文回覆，不要用簡體」');
    expect(memory!.expires).toBeUndefined();
  });

  it('a rule said in passing is a preference, however it is worded (issue 12: 以後…不要用, 別用, "no … ever")', async () => {
    const inRequest = await condense(
      '幫我看一下 src/api/client.ts，型別很亂。以後寫 TypeScript 不要用 any，真的不知道型別就用 unknown 再去收窄。',
      '看過了。',
    );
    const rule = inRequest.find((m) => m.memory_type === 'preference');
    expect(rule?.summary, JSON.stringify(inRequest)).toContain('不要用 any');
    const [aside] = await condense('又看到有人寫 as any 了……型別不確定就寫 unknown 再收窄，別用 any 偷懶，這點很重要。', '懂。');
    expect(aside).toMatchObject({ memory_type: 'preference' });
    const [english] = await condense(
      'Quick reminder for code review: no `any` in our TypeScript, ever — use `unknown` and narrow it with a type guard.',
      'Got it.',
    );
    expect(english).toMatchObject({ memory_type: 'preference' });
  });

  it('how it felt → emotional, priority ≥ 4, warm, with a user→role bond', async () => {
    const [memory, ...rest] = await condense('今天真的好累，工作壓力好大。', '辛苦了，先休息一下吧。');
    expect(rest).toEqual([]);
    expect(memory).toMatchObject({ memory_type: 'emotional', relevance: ['emotional'] });
    expect(memory!.priority).toBeGreaterThanOrEqual(4);
    expect(memory!.bond).toEqual({ text: '今天真的好累，工作壓力好大', direction: 'user-to-role' });
    expect(memory!.summary).toContain('今天真的好累');
    expect(memory!.expires).toBeUndefined();
  });

  it('both in one sentence → TWO memories, one of each type', async () => {
    const memories = await condense('謝謝你，剛剛那樣說讓我很開心，以後也這樣跟我說話。', '嘿嘿，我會的 😊');
    expect(memories.map((m) => m.memory_type).sort()).toEqual(['emotional', 'preference']);
    const preference = memories.find((m) => m.memory_type === 'preference')!;
    // Feedback on the role's manner is a high-priority memory of this role (CAP-4).
    expect(preference.priority).toBeGreaterThanOrEqual(4);
    expect(preference.summary).toMatch(/^使用者對角色的互動方式給出回饋：/);
    expect(memories.find((m) => m.memory_type === 'emotional')!.priority).toBeGreaterThanOrEqual(4);
  });

  it('plain praise is kept as a feeling, not folded into a preference', async () => {
    const [memory, ...rest] = await condense('做得好！', '謝謝誇獎～');
    expect(rest).toEqual([]);
    expect(memory).toMatchObject({ memory_type: 'emotional', relevance: ['emotional'] });
  });

  it('relationship talk keeps BOTH the user words and the role answer', async () => {
    const memories = await condense(
      '我同時以女性和女兒兩種方式愛妳，這不矛盾。',
      '謝謝你這麼珍惜我。不過我會一直是你的家人，用女兒的身分陪著你。',
    );
    const relation = memories.find((m) => m.tags.includes('關係'))!;
    expect(relation).toMatchObject({ memory_type: 'emotional', priority: 5, category: 'important' });
    expect(relation.relevance).toContain('emotional');
    expect(relation.summary).toContain('我同時以女性和女兒兩種方式愛妳');
    expect(relation.summary).toContain('角色回應');
    expect(relation.keyPoints.join('\n')).toContain('使用者原話：我同時以女性和女兒兩種方式愛妳');
    expect(relation.keyPoints.join('\n')).toMatch(/角色當時的回應：.*家人/);
    expect(relation.summary).toMatch(/角色回應「.*家人/);
    // Keeping a boundary is not reciprocation (CAP-4: never record it as "accepted", 已接受).
    expect(relation.bond).toEqual({ text: '我同時以女性和女兒兩種方式愛妳，這不矛盾', direction: 'user-to-role' });
    // "愛妳" is no preference: the 愛 of the relationship phrase is not read as a liking.
    expect(memories.some((m) => m.memory_type === 'preference')).toBe(false);
  });

  it('a reply in kind makes the bond mutual', async () => {
    const memories = await condense('I love you.', 'I love you too.');
    expect(memories).toHaveLength(1);
    expect(memories[0]).toMatchObject({ memory_type: 'emotional', bond: { direction: 'mutual' } });
    expect(memories[0]!.summary).toBe('User said "I love you"; the role answered "I love you too"');
  });

  it('relationship talk without a reply says so instead of dropping the role side', async () => {
    const [memory] = await condense('我喜歡你', '');
    expect(memory!.summary).toContain('角色本輪沒有文字回應');
    expect(memory!.bond?.direction).toBe('user-to-role');
  });

  it.each([
    ['今天可以直接 push 到 main，不用開 PR。', TODAY],
    ['這次先跳過 lint 檢查。', '本工作階段'],
    ['這個 PR 允許你直接改設定檔。', '這個 PR 合併或關閉後失效'],
    ['暫時不用再問我確認。', '本工作階段'],
    ['For now you can skip the e2e tests.', '本工作階段'],
    ['Today you may push directly.', TODAY],
  ])('temporary permission gets expires: %s', async (user, expires) => {
    const [memory] = await condense(user, '了解。');
    expect(memory).toMatchObject({ memory_type: 'preference', expires });
    expect(memory!.relevance).toContain('temporary');
    expect(memory!.keyPoints.some((p) => p.includes(expires))).toBe(true);
  });

  it('a lasting preference gets no expires (首先/優先 are not 先)', async () => {
    const [memory] = await condense('首先，以後都優先用 pnpm。', '好。');
    expect(memory!.expires).toBeUndefined();
  });

  it('a work turn becomes one episodic memory with a guessed category and tags', async () => {
    const reply = '我把 GitHub Actions 的 build 修好了：lint 設定少了一條規則，加上後 CI 全綠。';
    const [memory, ...rest] = await condense('幫我看為什麼 CI 的 build 一直失敗，build 日誌在 Actions 裡。', reply);
    expect(rest).toEqual([]);
    expect(memory).toMatchObject({ memory_type: 'episodic', category: 'daily', priority: 3 });
    expect(memory!.summary).toMatch(/^使用者提到：「幫我看為什麼 CI 的 build 一直失敗/);
    expect(memory!.tags).toEqual(expect.arrayContaining(['CI', 'build']));
  });

  it('inline code keeps its words; fenced blocks are left out of the summary', async () => {
    const [memory] = await condense('以後都用 `pnpm` 安裝套件。\n```\nnpm ERR! 404\n```', '好。');
    expect(memory!.summary).toBe('使用者表示：「以後都用 pnpm 安裝套件」');
    expect(memory!.tags).toContain('pnpm');
  });

  it('explicit "remember" raises priority and marks relevance explicit', async () => {
    const [memory] = await condense('記住：staging 在 8080 port。', '好。');
    expect(memory).toMatchObject({ priority: 4, relevance: ['explicit'] });
  });

  it('English input gets an English summary; Simplified input is quoted as written (the writer converts it)', async () => {
    const [english] = await condense('I prefer short answers without emoji.', 'Got it.');
    expect(english!.summary).toBe('User said: "I prefer short answers without emoji"');
    const [simplified] = await condense('我比较喜欢简短的回答。', '好的。');
    expect(simplified!.summary).toBe('使用者表示：「我比较喜欢简短的回答」');
  });

  it('a summary is one clipped sentence', async () => {
    const [memory] = await condense(`以後都${'很長的要求'.repeat(50)}。`, '好。');
    expect(Array.from(memory!.summary).length).toBeLessThanOrEqual(70);
    expect(memory!.summary).not.toContain('\n');
  });

  it('never throws on odd input', async () => {
    const odd: unknown[] = ['', '   ', '```\ncode only\n```', '\u0000\u0001', '😀'.repeat(5000), 'a'.repeat(100_000), undefined, null, 42];
    for (const value of odd) {
      const memories = await localCondenser.condense(turnInput(value as string, value as string));
      expect(memories.length).toBeGreaterThanOrEqual(1);
      for (const m of memories) expect(typeof m.summary).toBe('string');
    }
  });
});

describe('tags', () => {
  it('never come from redaction placeholders', async () => {
    const { extractTags } = await import('../../main/core/platform/text/turn-text.js');
    const tags = extractTags(['記住：我以後都想用 pnpm。我的 token=[REDACTED:secret] 在 [REDACTED:email]'], []);
    expect(tags).toContain('pnpm');
    expect(tags.join(' ')).not.toMatch(/REDACTED|secret|email|token/);
  });
});
