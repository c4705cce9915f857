import { describe, expect, it } from 'vitest';
import { closesAnyway, unloadPrompt } from './unload-prompt-logic.js';

describe('the native question when the page refuses to unload', () => {
  it('asks in the app language, with Stay as the answer that keeps the window', () => {
    const zh = unloadPrompt('zh-TW');
    expect(zh.message).toBe('還有沒儲存的修改');
    expect(zh.buttons[zh.leaveIndex]).toBe('關閉，不儲存');
    expect(zh.buttons[zh.stayIndex]).toBe('留下');
    expect(unloadPrompt('en').buttons).toEqual(['Close without saving', 'Stay']);
  });

  it('closes only on the leave button', () => {
    const prompt = unloadPrompt('en');
    expect(closesAnyway(prompt, 0)).toBe(true);
    expect(closesAnyway(prompt, 1)).toBe(false);
    expect(closesAnyway(prompt, -1)).toBe(false);
  });
});
