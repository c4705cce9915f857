import { describe, expect, it } from 'vitest';
import { shouldCondense } from '../../main/core/engine/capture/capture-filter.js';
import { PERSONAL_PLACEHOLDER, stripPersonalDetails } from '../../main/core/engine/capture/personal-details.js';
import { asksNotToRememberTurn, detectConsentChange, isPositiveFeedback } from '../../main/core/engine/capture/turn-signals.js';

const settings = { ROLE_CAPTURE_ENABLED: true, ROLE_CAPTURE_MIN_CHARS: 240 };
const turn = (userText: string, assistantText = '好的。') => ({ userText, assistantText });

describe('shouldCondense (CAP-1)', () => {
  it('skips a short turn without a memory cue', () => {
    expect(shouldCondense(turn('幫我跑一下測試', '測試都通過了。'), settings)).toEqual({ condense: false, reason: 'too-short' });
    expect(shouldCondense(turn('run the tests', 'All green.'), settings).condense).toBe(false);
  });

  it('keeps a long turn without a cue', () => {
    expect(shouldCondense(turn('幫我看這段程式', '好'.repeat(240)), settings)).toMatchObject({ condense: true, reason: 'long-enough' });
  });

  it.each([
    ['記住我用 pnpm', 'remember'],
    ['记住我用 pnpm', 'remember'],
    ['Remember that staging is on port 8080', 'remember'],
    ['以後都用繁體中文回覆', 'preference'],
    ['我比较喜欢简短的回答', 'preference'],
    ['I prefer tabs', 'preference'],
    ['謝謝你！', 'feedback'],
    ['good job', 'feedback'],
    ['I like how you explained that', 'feedback'],
    ['今天好累', 'emotion'],
    ['I miss you', 'emotion'],
    ['我同意保存個人資料', 'consent'],
    ['不要記這個', 'consent'],
    ['這次可以直接 push 到 main', 'permission'],
    ['妳是我的家人', 'relationship'],
  ])('keeps a short turn with a cue: %s', (userText, cue) => {
    expect(shouldCondense(turn(userText), settings)).toEqual({ condense: true, reason: 'cue', cue });
  });

  it('only tests the user words for cues (the role shows a mood in every reply)', () => {
    expect(shouldCondense(turn('跑測試', '好開心，測試都過了！'), settings).condense).toBe(false);
  });

  it('force (PreCompact, CAP-5) skips the length test but not an empty turn', () => {
    expect(shouldCondense(turn('ok', 'ok'), settings, { force: true })).toEqual({ condense: true, reason: 'forced' });
    expect(shouldCondense(turn('  ', ''), settings, { force: true })).toEqual({ condense: false, reason: 'empty' });
  });

  it('ROLE_CAPTURE_ENABLED=0 keeps nothing, not even a forced or cued turn', () => {
    const off = { ...settings, ROLE_CAPTURE_ENABLED: false };
    expect(shouldCondense(turn('記住這個'), off, { force: true })).toEqual({ condense: false, reason: 'disabled' });
  });

  it('counts characters, not UTF-16 units', () => {
    const emoji = '😀'.repeat(120);
    expect(shouldCondense(turn(emoji, ''), { ...settings, ROLE_CAPTURE_MIN_CHARS: 121 }).condense).toBe(false);
  });
});

describe('detectConsentChange (PRIV-3: explicit only)', () => {
  it.each([
    ['我同意保存我的個人資料', 'accepted'],
    ['同意你記住我的名字', 'accepted'],
    ['you may remember my personal details', 'accepted'],
    ['我不同意保存個人資料', 'declined'],
    ['不要記我的個人資料', 'declined'],
    ['别记我的个人资料', 'declined'],
    ["please don't save my personal info", 'declined'],
  ])('%s → %s', (text, expected) => {
    expect(detectConsentChange(text)).toBe(expected);
  });

  it('reads a bare 同意 only as the answer to the consent question', () => {
    expect(detectConsentChange('同意', '好的，我會把你的個人資料保存在記憶裡。')).toBe('accepted');
    expect(detectConsentChange('我不同意', '了解，我不會保存可識別你的個人資料。')).toBe('declined');
    expect(detectConsentChange('同意', '好，那我們用方案 B。')).toBeUndefined();
  });

  it('never infers consent', () => {
    for (const text of ['好', '可以', 'ok', '記住我用 pnpm', '我同意你的看法', 'I agree with the plan']) {
      expect(detectConsentChange(text, '好的。')).toBeUndefined();
    }
  });
});

describe('isPositiveFeedback (CAP-6)', () => {
  it('counts praise and thanks for the role', () => {
    expect(isPositiveFeedback('謝謝你，剛剛那樣說讓我很開心')).toBe(true);
    expect(isPositiveFeedback('Good job!')).toBe(true);
  });

  it('does not count politeness in a request, complaints or mixed feedback', () => {
    expect(isPositiveFeedback('幫我修這個 bug，謝謝')).toBe(false);
    expect(isPositiveFeedback('謝謝，但我不喜歡你這樣回')).toBe(false);
    expect(isPositiveFeedback('跑一下測試')).toBe(false);
  });
});

describe('asksNotToRememberTurn', () => {
  it('hears "don\'t remember this" in both scripts and English', () => {
    expect(asksNotToRememberTurn('這段不要記住這個喔')).toBe(true);
    expect(asksNotToRememberTurn('别记这个')).toBe(true);
    expect(asksNotToRememberTurn("off the record: I'm job hunting")).toBe(true);
    expect(asksNotToRememberTurn('不要記錯時間')).toBe(false);
  });
});

describe('stripPersonalDetails (PRIV-3)', () => {
  it('removes names the user gives for themselves and addresses', () => {
    const { text, removed } = stripPersonalDetails(
      '我叫王小明，住址是台北市信義區松仁路100號。My name is Alice Chen, I live at 12 Baker Street.',
    );
    expect(text).not.toMatch(/王小明|松仁路|Alice|Baker/);
    expect(text).toContain(`我叫${PERSONAL_PLACEHOLDER}`);
    expect(removed).toBeGreaterThanOrEqual(4);
  });

  it('leaves ordinary sentences alone', () => {
    const input = '你叫我改的那個檔案已經好了，我叫你幫忙看一下 PR。';
    expect(stripPersonalDetails(input)).toEqual({ text: input, removed: 0 });
  });
});
