import { describe, expect, it } from 'vitest';
import { randomTexts } from '../../../../test/helpers/random-texts.js';
import { languageOfRole, languageOfText, languagePatterns, Script, SCRIPT_RANGES, scriptOf } from './context-language.js';

/** What the regexes make of one code point on its own. */
function patternScript(char: string): Script {
  const { cjk, letter } = languagePatterns();
  if (cjk.test(char)) return Script.Cjk;
  return letter.test(char) ? Script.Letter : Script.Other;
}

/** The language as the regexes alone judge it (the definition). */
function patternLanguage(text: string, fallback: 'zh-TW' | 'en'): 'zh-TW' | 'en' {
  const { cjk, letter } = languagePatterns();
  if (cjk.test(text)) return 'zh-TW';
  return letter.test(text) ? 'en' : fallback;
}

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

describe('scriptOf', () => {
  it('classifies every code point of ASCII and of its ranges as the Unicode-property regexes do', () => {
    const mismatches: string[] = [];
    const check = (code: number) => {
      const char = String.fromCodePoint(code);
      if (scriptOf(code) !== patternScript(char)) mismatches.push(`${hex(code)} ${char}`);
    };
    for (let code = 0; code < 0x80; code += 1) check(code);
    for (const [first, last] of SCRIPT_RANGES) for (let code = first; code <= last; code += 1) check(code);
    expect(mismatches).toEqual([]);
  });

  it('keeps its ranges ascending and disjoint, and leaves everything else to the regexes', () => {
    for (let i = 1; i < SCRIPT_RANGES.length; i += 1) expect(SCRIPT_RANGES[i]![0]).toBeGreaterThan(SCRIPT_RANGES[i - 1]![1]);
    // ª and µ, 々 and ー, the Hangul Jamo, an emoji's first half: all decided by the regexes.
    for (const code of [0x80, 0xaa, 0xb5, 0x3005, 0x30fc, 0x1100, 0xd83d, 0xfe30]) expect(scriptOf(code), hex(code)).toBe(Script.Unknown);
  });
});

describe('languageOfText', () => {
  it.each([
    ['小記', 'zh-TW'],
    ['A calm reviewer who reads every diff twice', 'en'],
    ['Python 工程師', 'zh-TW'],
    ['コーヒー', 'zh-TW'],
    ['커피', 'zh-TW'],
    ['々', 'zh-TW'],
    ['𠮷', 'zh-TW'],
    ['café', 'en'],
    ['Ｆｕｌｌ', 'en'],
    ['Привет', 'en'],
    ['🚀 2026', 'zh-TW'],
    ['，。！？123', 'zh-TW'],
    ['', 'zh-TW'],
  ] as const)('%s → %s (fallback zh-TW)', (text, language) => {
    expect(languageOfText(text)).toBe(language);
    expect(languageOfText(text)).toBe(patternLanguage(text, 'zh-TW'));
  });

  it('answers as the regexes do on random mixes of the characters it knows and those it does not', () => {
    const texts = randomTexts('ab Z9_-.,、。「」頭髮部署ひらカター한글々・éªµП🚀𠮷１Ａ！ \n\t', { count: 3000, maxLength: 9, seed: 23 });
    texts.forEach((text, i) => {
      const fallback = i % 2 === 0 ? 'zh-TW' : 'en';
      expect(languageOfText(text, fallback), JSON.stringify(text)).toBe(patternLanguage(text, fallback));
    });
  });

  it('gives a role without any letter its fallback, English', () => {
    expect(languageOfRole({ name: '007', nature: '—', vibe: '…' })).toBe('en');
    expect(languageOfRole({ name: '小記', nature: 'calm', vibe: 'kind' })).toBe('zh-TW');
  });
});
