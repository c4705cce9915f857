/**
 * The language of injected text (X-I18N: "injected text in the role's language"). Kioku ships the
 * shared rules and every label in Traditional Chinese (Taiwan) and English; a role written in
 * any CJK script gets zh-TW (the role skill's own roles are all Chinese), anything else English.
 */
export type ContextLanguage = 'zh-TW' | 'en';

/**
 * What a code point says about the language. The Unicode-property regexes below are the
 * definition; the ranges answer for the code points almost every role is written in. Written out
 * by hand because the hook's fallback judged every load's language with those regexes, and in a
 * fresh process creating the \p{Script=…} class (0.4 ms) and compiling it on its first test
 * (0.1 ms) was half a millisecond of every hook answered without the daemon (issue 17, session 34).
 * A code point outside the ranges, or past U+FFFF, hands the text to the regexes, so the two can
 * never disagree (context-language.test.ts compares every code point of the ranges with them).
 */
export const Script = { Other: 0, Letter: 1, Cjk: 2, Unknown: 3 } as const;
export type Script = (typeof Script)[keyof typeof Script];

/** Inclusive code point ranges past ASCII and their script, ascending and disjoint (checked by the test). */
export const SCRIPT_RANGES: ReadonlyArray<readonly [first: number, last: number, script: Script]> = [
  // Latin-1 letters, Latin Extended-A and -B, IPA (not × and ÷).
  [0xc0, 0xd6, Script.Letter],
  [0xd8, 0xf6, Script.Letter],
  [0xf8, 0x2af, Script.Letter],
  // General punctuation: dashes, quotation marks, the ellipsis.
  [0x2010, 0x2027, Script.Other],
  // CJK symbols and punctuation: the ideographic space, 、。, brackets (not 々〆〇, which are Han).
  [0x3000, 0x3004, Script.Other],
  [0x3008, 0x3011, Script.Other],
  [0x3041, 0x3096, Script.Cjk],
  [0x30a1, 0x30fa, Script.Cjk],
  [0x3400, 0x4dbf, Script.Cjk],
  [0x4e00, 0x9fff, Script.Cjk],
  [0xac00, 0xd7a3, Script.Cjk],
  // Full-width forms: punctuation and digits say nothing; full-width Latin letters are letters.
  [0xff01, 0xff20, Script.Other],
  [0xff21, 0xff3a, Script.Letter],
  [0xff3b, 0xff40, Script.Other],
  [0xff41, 0xff5a, Script.Letter],
];

export function scriptOf(code: number): Script {
  if (code < 0x80) return (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a ? Script.Letter : Script.Other;
  if (code >= 0x4e00 && code <= 0x9fff) return Script.Cjk;
  // A surrogate (a code point past U+FFFF: emoji, rare ideographs) is outside the ranges.
  if (code >= 0xd800 && code <= 0xdfff) return Script.Unknown;
  for (const [first, last, script] of SCRIPT_RANGES) {
    if (code < first) return Script.Unknown;
    if (code <= last) return script;
  }
  return Script.Unknown;
}

interface LanguagePatterns {
  cjk: RegExp;
  letter: RegExp;
}
let patterns: LanguagePatterns | undefined;
/** The definition, built on first need. */
export function languagePatterns(): LanguagePatterns {
  return (patterns ??= {
    cjk: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u,
    letter: /[\p{L}]/u,
  });
}

function languageByPattern(text: string, fallback: ContextLanguage): ContextLanguage {
  const { cjk, letter } = languagePatterns();
  if (cjk.test(text)) return 'zh-TW';
  return letter.test(text) ? 'en' : fallback;
}

/** zh-TW when the text has any CJK character, else English when it has a letter, else `fallback`. */
export function languageOfText(text: string, fallback: ContextLanguage = 'zh-TW'): ContextLanguage {
  let letter = false;
  for (let i = 0; i < text.length; i += 1) {
    const script = scriptOf(text.charCodeAt(i));
    if (script === Script.Cjk) return 'zh-TW';
    if (script === Script.Unknown) return languageByPattern(text, fallback);
    if (script === Script.Letter) letter = true;
  }
  return letter ? 'en' : fallback;
}

/**
 * Name, nature and vibe decide: they are the text the role speaks from. An English role with a
 * Chinese alias still reads English rules (aliases are not injected, ROLE-6).
 */
export function languageOfRole(role: { name: string; nature: string; vibe: string }): ContextLanguage {
  return languageOfText(`${role.name}\n${role.nature}\n${role.vibe}`, 'en');
}

/** The zh-TW or English variant of a phrase. */
export function say(language: ContextLanguage, zh: string, en: string): string {
  return language === 'zh-TW' ? zh : en;
}

/** A list of words joined the way each language writes one (「a、b」 / "a, b"). */
export function joinWords(language: ContextLanguage, words: readonly string[]): string {
  return words.join(language === 'zh-TW' ? '、' : ', ');
}
