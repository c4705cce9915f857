import { describe, expect, it } from 'vitest';
import { recallRoute } from './recall-route.js';

describe('recallRoute', () => {
  it('tells CJK runs, words and --json apart, as the recall goes through other code for each', () => {
    expect(recallRoute('頭髮', false)).toBe('recall/cjk');
    expect(recallRoute('デプロイ', false)).toBe('recall/cjk');
    expect(recallRoute('deploy 流程', true)).toBe('recall/cjk+word/json');
    expect(recallRoute('v2', false)).toBe('recall/word');
    expect(recallRoute('—', false)).toBe('recall/other');
  });
});
