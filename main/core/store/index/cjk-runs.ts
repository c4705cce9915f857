/**
 * A text's runs for the index and for queries (cjk-segmenter.ts): maximal runs of CJK characters
 * (Han, kana, Hangul and ー) and of other letters and digits; everything else separates them.
 *
 * Written out by hand rather than left to the Unicode-property regexes alone: building those
 * regexes and compiling them on first use costs a fresh process 2–3 ms (the \p{Script=…} sets are
 * large), which is a tenth of a `kioku memory recall` without the daemon (issue 17). Almost all
 * text is ASCII, CJK ideographs, kana, Hangul and CJK punctuation; each of those code points is
 * classified here from its range, and the regexes — built on first need — still decide any text
 * with a code point outside them, so the two can never disagree on what they both answer
 * (cjk-runs.test.ts compares every code point of the ranges below with the regexes).
 */
export interface TextRun {
  text: string;
  cjk: boolean;
}

/** A code point's part in the runs; `Unknown`: outside the ranges below, the regexes decide. */
export const CharClass = { Separator: 0, Word: 1, Cjk: 2, Unknown: 3 } as const;
export type CharClass = (typeof CharClass)[keyof typeof CharClass];

/** Inclusive code point ranges and their class, ascending and disjoint (checked by the test). */
export const KNOWN_RANGES: ReadonlyArray<readonly [first: number, last: number, cls: CharClass]> = [
  [0x00, 0x2f, CharClass.Separator],
  [0x30, 0x39, CharClass.Word],
  [0x3a, 0x40, CharClass.Separator],
  [0x41, 0x5a, CharClass.Word],
  [0x5b, 0x60, CharClass.Separator],
  [0x61, 0x7a, CharClass.Word],
  [0x7b, 0x7f, CharClass.Separator],
  // General punctuation: dashes, quotation marks, the ellipsis.
  [0x2010, 0x2027, CharClass.Separator],
  // CJK symbols and punctuation: the ideographic space, 、。, brackets (not 々〆〇, which are Han).
  [0x3000, 0x3004, CharClass.Separator],
  [0x3008, 0x3011, CharClass.Separator],
  [0x3041, 0x3096, CharClass.Cjk],
  [0x30a1, 0x30fa, CharClass.Cjk],
  [0x30fc, 0x30fc, CharClass.Cjk],
  [0x3400, 0x4dbf, CharClass.Cjk],
  [0x4e00, 0x9fff, CharClass.Cjk],
  [0xac00, 0xd7a3, CharClass.Cjk],
  // Full-width forms: ！（），：；？ and the like separate; full-width digits and letters are words.
  [0xff01, 0xff0f, CharClass.Separator],
  [0xff10, 0xff19, CharClass.Word],
  [0xff1a, 0xff20, CharClass.Separator],
  [0xff21, 0xff3a, CharClass.Word],
  [0xff3b, 0xff40, CharClass.Separator],
  [0xff41, 0xff5a, CharClass.Word],
];

export function classOf(code: number): CharClass {
  // ASCII first: most code points of most texts, and the ranges make no call for it.
  if (code < 0x80) {
    if (code >= 0x61) return code <= 0x7a ? CharClass.Word : CharClass.Separator;
    if (code >= 0x41) return code <= 0x5a ? CharClass.Word : CharClass.Separator;
    return code >= 0x30 && code <= 0x39 ? CharClass.Word : CharClass.Separator;
  }
  if (code >= 0x4e00 && code <= 0x9fff) return CharClass.Cjk;
  for (const [first, last, cls] of KNOWN_RANGES) {
    if (code < first) return CharClass.Unknown;
    if (code <= last) return cls;
  }
  return CharClass.Unknown;
}

const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30FC';

interface RunPatterns {
  cjkRun: RegExp;
  runs: RegExp;
}
let patterns: RunPatterns | undefined;
/** The regexes' definition of the runs, built on first need. */
export function runPatterns(): RunPatterns {
  return (patterns ??= {
    cjkRun: new RegExp(`^[${CJK_CLASS}]+$`, 'u'),
    // Han is also \p{L}: the second alternative must stop at CJK so `Python寫` splits into two runs.
    runs: new RegExp(`[${CJK_CLASS}]+|(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}])+`, 'gu'),
  });
}

function runsByPattern(text: string): TextRun[] {
  const { runs, cjkRun } = runPatterns();
  return (text.match(runs) ?? []).map((run) => ({ text: run, cjk: cjkRun.test(run) }));
}

/** The runs of a text, in order. */
export function runsOf(text: string): TextRun[] {
  const runs: TextRun[] = [];
  let start = -1;
  let current: CharClass = CharClass.Separator;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    // A surrogate (a code point past U+FFFF, emoji among them) is outside the ranges.
    const cls = code >= 0xd800 && code <= 0xdfff ? CharClass.Unknown : classOf(code);
    if (cls === CharClass.Unknown) return runsByPattern(text);
    if (cls === current) continue;
    if (current !== CharClass.Separator) runs.push({ text: text.slice(start, i), cjk: current === CharClass.Cjk });
    current = cls;
    start = i;
  }
  if (current !== CharClass.Separator) runs.push({ text: text.slice(start), cjk: current === CharClass.Cjk });
  return runs;
}
