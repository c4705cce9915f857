import { COLUMN_WEIGHTS } from './recall-boost.js';
import type { SearchText } from './memory-rows.js';

/**
 * Which words the word postings hold (word-postings.ts, issue 17): two characters, each from a
 * range below. These are the common Chinese (and Japanese, Korean) words of a query, and for them
 * the index's words can be known without asking SQLite: cjk-runs.ts puts every one of these
 * characters in a CJK run, cjk-segmenter.ts writes each pair of a run as one space-separated
 * token, and FTS5's unicode61 keeps such a token whole (letters, no case, no diacritics). So a
 * memory's words of this kind are exactly its segmented text's two-character tokens of these
 * ranges — which is what lets a change be logged from the text alone (word-postings-upkeep.ts).
 *
 * The ranges stop where SQLite's own Unicode tables may stop: characters added to Unicode after
 * 11.0 (U+9FF0–9FFF, U+4DB6–4DBF) might be separators to the tokenizer. postings-words.test.ts
 * indexes every character of every range and checks FTS5 keeps each pair whole.
 */
export const POSTINGS_RANGES: ReadonlyArray<readonly [first: number, last: number]> = [
  [0x3041, 0x3096], // hiragana
  [0x30a1, 0x30fa], // katakana
  [0x3400, 0x4db5], // CJK extension A
  [0x4e00, 0x9fef], // CJK unified ideographs
  [0xac00, 0xd7a3], // Hangul syllables
];

function inRanges(code: number): boolean {
  // The unified ideographs first: almost every character asked about.
  if (code >= 0x4e00) return code <= 0x9fef || (code >= 0xac00 && code <= 0xd7a3);
  return (code >= 0x3400 && code <= 0x4db5) || (code >= 0x30a1 && code <= 0x30fa) || (code >= 0x3041 && code <= 0x3096);
}

export function isPostingsWord(word: string): boolean {
  return word.length === 2 && inRanges(word.charCodeAt(0)) && inRanges(word.charCodeAt(1));
}

const COLUMNS = ['summary', 'tags', 'cues', 'body'] as const satisfies ReadonlyArray<keyof SearchText>;

/**
 * A memory's postings words with their weighted frequencies (a summary hit counts 3, tags and
 * cues 2, body 1: recall-boost.ts COLUMN_WEIGHTS), from its segmented search text.
 */
export function postingsWordsOf(text: SearchText): Map<string, number> {
  const words = new Map<string, number>();
  COLUMNS.forEach((column, index) => {
    const weight = COLUMN_WEIGHTS[index]!;
    for (const token of text[column].split(' ')) {
      if (isPostingsWord(token)) words.set(token, (words.get(token) ?? 0) + weight);
    }
  });
  return words;
}
