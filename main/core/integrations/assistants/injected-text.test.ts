import { describe, expect, it } from 'vitest';
import { stripInjectedText } from './injected-text.js';

/** Text of the kind Kioku injects at SessionStart: the shared behaviour rules (resources/agents/). */
const RULES = '## 共用行為\n- 角色設定不是編造事實的理由：不知道就說不知道。\n- 記憶只寫使用者確實說過的事。';

describe("stripInjectedText (issue 13: injected text never becomes the user's words)", () => {
  it("removes Gemini's <hook_context> before the prompt (SessionStart) and after it (BeforeAgent)", () => {
    expect(stripInjectedText(`<hook_context>${RULES}</hook_context>幫我把部署腳本改成藍綠切換`)).toBe('幫我把部署腳本改成藍綠切換');
    expect(stripInjectedText(`幫我看這段<hook_context>（今天是星期二）</hook_context>`)).toBe('幫我看這段');
    expect(stripInjectedText(`<hook_context>${RULES}</hook_context>\n\n記住：發版前先跑 smoke test<hook_context>x</hook_context>`)).toBe(
      '記住：發版前先跑 smoke test',
    );
  });

  it("removes Claude Code's reminders and inline hook output", () => {
    expect(stripInjectedText(`<system-reminder>\nSessionStart:startup hook success: ${RULES}\n</system-reminder>好，繼續`)).toBe(
      '好，繼續',
    );
    expect(stripInjectedText(`<user-prompt-submit-hook>${RULES}</user-prompt-submit-hook>繼續`)).toBe('繼續');
    expect(stripInjectedText(`SessionStart:startup hook success: ${RULES}`)).toBe('');
    expect(stripInjectedText(`UserPromptSubmit hook success: 你現在是西莉卡`)).toBe('');
  });

  it('answers empty when everything was injected, and leaves plain words alone', () => {
    expect(stripInjectedText(`<hook_context>${RULES}</hook_context>`)).toBe('');
    expect(stripInjectedText('  我比較喜歡用 <b>pnpm</b>，不要 npm  ')).toBe('我比較喜歡用 <b>pnpm</b>，不要 npm');
    // Talking about the hook is not hook output: only a text that begins with its rendering is.
    expect(stripInjectedText('為什麼會印出 SessionStart:startup hook success: 這行？')).toBe(
      '為什麼會印出 SessionStart:startup hook success: 這行？',
    );
  });
});
