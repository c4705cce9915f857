import { describe, expect, it } from 'vitest';
import { guardScript } from './script-guard.js';

describe('guardScript (PRIV-2, seed 000 §繁簡防線)', () => {
  it('converts by phrase: 头发 → 頭髮, never 頭發', async () => {
    const result = await guardScript('我去剪头发');
    expect(result).toEqual({ text: '我去剪頭髮', converted: true, warnings: [] });
  });

  it.each([
    ['理发', '理髮'],
    ['发现问题', '發現問題'],
    ['后来我们', '後來我們'],
    ['这个面包很好吃', '這個麵包很好吃'],
    ['我们在家里', '我們在家裡'],
    ['他看着窗外说', '他看著窗外說'],
  ])('converts %s → %s', async (input, expected) => {
    expect((await guardScript(input)).text).toBe(expected);
  });

  it('keeps 皇后 as 皇后 inside Simplified text', async () => {
    expect((await guardScript('皇后来了')).text).toBe('皇后來了');
  });

  it.each(['頭髮', '皇后', '公里', '乾淨', '理髮之後，皇后走了三公里，很乾淨。', '我吃了飯', 'plain English', ''])(
    'returns Traditional or non-Chinese text unchanged: %s',
    async (text) => {
      expect(await guardScript(text)).toEqual({ text, converted: false, warnings: [] });
    },
  );

  it('converts a text without any Simplified-only character by its phrases', async () => {
    // 面包 and 家里 are Simplified spellings made of characters Traditional also uses; the phrase
    // table is the context that tells them apart from real Traditional writing (皇后, 公里).
    expect(await guardScript('面包在家里')).toEqual({ text: '麵包在家裡', converted: true, warnings: [] });
  });

  it.each([
    ['什么', '什麼'],
    ['只要你愿意', '只要你願意'],
    ['后面的人', '後面的人'],
    ['里面', '裡面'],
    ['干杯', '乾杯'],
  ])('converts %s → %s although every character is also Traditional', async (input, expected) => {
    expect(await guardScript(input)).toEqual({ text: expected, converted: true, warnings: [] });
  });

  it.each(['頭髮', '皇后', '公里', '乾淨', '後來', '鄰里面前', '我了解了', '角色只影響表達方式', '於是只有啟用角色會睡'])(
    'leaves Traditional text byte-identical even where an OpenCC phrase matches: %s',
    async (text) => {
      expect(await guardScript(text)).toEqual({ text, converted: false, warnings: [] });
    },
  );

  it('warns about a lone ambiguous character once a phrase proved the text Simplified', async () => {
    const result = await guardScript('后面的人在等干');
    expect(result.text).toBe('後面的人在等干');
    expect(result.converted).toBe(true);
    expect(result.warnings.join('\n')).toContain('"干"');
  });

  it('leaves a Traditional sentence alone inside a Simplified text', async () => {
    // 只影響 would otherwise become 隻影響 (OpenCC reads 只影 as a phrase): an invisible error.
    const result = await guardScript('我们走吧。角色只影響表達方式。');
    expect(result.text).toBe('我們走吧。角色只影響表達方式。');
  });

  it('keeps Japanese (a sentence with kana) as written', async () => {
    expect(await guardScript('東京で会議があります')).toEqual({ text: '東京で会議があります', converted: false, warnings: [] });
    const mixed = await guardScript('会議は明日です。\n我们明天开会。');
    expect(mixed.text).toBe('会議は明日です。\n我們明天開會。');
  });

  it('leaves a lone ambiguous character and names it in a warning', async () => {
    const result = await guardScript('这个发');
    expect(result.text).toBe('這個发');
    expect(result.converted).toBe(true);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain('"发"');
    expect(result.warnings[0]).toContain('發 or 髮');
  });

  it('warns about a lone character that is also Traditional (后) without guessing', async () => {
    const result = await guardScript('这个后');
    expect(result.text).toContain('后');
    expect(result.warnings.join('\n')).toContain('"后"');
  });

  it('converts only the Simplified part of mixed text', async () => {
    const result = await guardScript('我們今天去剪头发，皇后很乾淨，走了三公里');
    expect(result.text).toBe('我們今天去剪頭髮，皇后很乾淨，走了三公里');
    expect(result.warnings).toEqual([]);
  });

  it('keeps placeholders, templates and code as written', async () => {
    const text = '记住 [REDACTED:email] 与 {{name}} 还有 `npm run build`';
    expect((await guardScript(text)).text).toBe('記住 [REDACTED:email] 與 {{name}} 還有 `npm run build`');
  });

  it('is idempotent', async () => {
    const once = await guardScript('后来我们去理发，头发短了');
    const twice = await guardScript(once.text);
    expect(twice).toEqual({ text: once.text, converted: false, warnings: [] });
  });
});
