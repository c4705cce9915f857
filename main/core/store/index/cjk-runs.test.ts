import { describe, expect, it } from 'vitest';
import { randomTexts } from '../../../../test/helpers/random-texts.js';
import { CharClass, classOf, KNOWN_RANGES, runPatterns, runsOf } from './cjk-runs.js';

/** What the regexes make of one code point on its own. */
function patternClass(char: string): CharClass {
  const { runs, cjkRun } = runPatterns();
  const match = char.match(runs);
  if (!match) return CharClass.Separator;
  return cjkRun.test(match[0]!) ? CharClass.Cjk : CharClass.Word;
}

/** The regexes' runs, as the splitter before it gave them. */
function patternRuns(text: string) {
  const { runs, cjkRun } = runPatterns();
  return (text.match(runs) ?? []).map((run) => ({ text: run, cjk: cjkRun.test(run) }));
}

describe('runsOf', () => {
  it('classifies every code point of its ranges as the Unicode-property regexes do', () => {
    const mismatches: string[] = [];
    for (const [first, last] of KNOWN_RANGES)
      for (let code = first; code <= last; code += 1) {
        const char = String.fromCodePoint(code);
        if (classOf(code) !== patternClass(char)) mismatches.push(`U+${code.toString(16).toUpperCase().padStart(4, '0')} ${char}`);
      }
    expect(mismatches).toEqual([]);
  });

  it('keeps its ranges ascending and disjoint, and leaves everything else to the regexes', () => {
    for (let i = 1; i < KNOWN_RANGES.length; i += 1) expect(KNOWN_RANGES[i]![0]).toBeGreaterThan(KNOWN_RANGES[i - 1]![1]);
    for (const code of [0x80, 0xe9, 0x3005, 0x3007, 0x309b, 0x30fb, 0x1100, 0xfe30]) expect(classOf(code)).toBe(CharClass.Unknown);
  });

  it.each([
    ['我喜歡咖啡', 'CJK only'],
    ['用Python寫程式 v2.1，好嗎？', 'CJK next to ASCII words, digits and full-width punctuation'],
    ['コーヒー・ラテ と 커피', 'kana with ・ (outside the ranges) and Hangul'],
    ['々〇〆 時々', 'Han outside the ideograph blocks'],
    ['café naïve Ｆｕｌｌ１２３', 'Latin with diacritics and full-width letters'],
    ['部署🚀完成 😀', 'emoji (surrogate pairs)'],
    ['𠮷野家 𩸽', 'ideographs past U+FFFF'],
    ['', 'empty'],
    ['，。！？「」…', 'punctuation only'],
  ])('splits %s as the regexes do (%s)', (text) => {
    expect(runsOf(text)).toEqual(patternRuns(text));
  });

  it('matches the regexes on random mixes of the characters it knows and those it does not', () => {
    const texts = randomTexts('ab Z9_-.,、。「」頭髮部署ひらカター한글々・é🚀𠮷１Ａ！ \n\t', { count: 2000, maxLength: 11, seed: 17 });
    for (const text of texts) expect(runsOf(text), JSON.stringify(text)).toEqual(patternRuns(text));
  });
});
