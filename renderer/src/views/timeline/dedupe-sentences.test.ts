import { describe, expect, it } from 'vitest';
import { withoutRepeats } from './dedupe-sentences.js';

describe('withoutRepeats (issue 16: merged memories say each sentence once)', () => {
  it('drops a repeated list line and a repeated sentence inside a paragraph', () => {
    const merged =
      '- 部署前先跑 smoke test。\n- 切換後觀察十分鐘。\n- 部署前先跑 smoke test\n\n部署前先跑 smoke test。最後關掉舊的那一組。';
    expect(withoutRepeats(merged)).toBe('- 部署前先跑 smoke test。\n- 切換後觀察十分鐘。\n\n最後關掉舊的那一組。');
  });

  it('carries what was said across calls (the gist, then the detail)', () => {
    const seen = new Set<string>();
    expect(withoutRepeats('主旨：部署流程固定三步。', seen)).toBe('主旨：部署流程固定三步。');
    expect(withoutRepeats('部署流程固定三步。先在 staging 驗證。', seen)).toBe('先在 staging 驗證。');
  });

  it('keeps code blocks, headings and different sentences as they are', () => {
    const text = '## 步驟\n```sh\nnpm test\nnpm test\n```\nA one. B two.';
    expect(withoutRepeats(text)).toBe(text);
  });
});
