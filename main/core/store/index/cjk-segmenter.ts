/**
 * CJK text for SQLite FTS5 without a dictionary (X-SEARCH).
 * Design notes: docs/design-notes.md, "main/core/store/index/cjk-segmenter.ts".
 */
import { runsOf } from './cjk-runs.js';

function bigrams(chars: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i += 1) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/**
 * The indexed form of a text. Each CJK run ends with its last character alone so that a
 * one-character query (a prefix query, `啡*`) finds a character that is never the start of a
 * bigram; every other character already starts one.
 */
export function segmentForIndex(text: string): string {
  const tokens: string[] = [];
  for (const { text: run, cjk } of runsOf(text)) {
    if (!cjk) {
      tokens.push(run.toLowerCase());
      continue;
    }
    const chars = Array.from(run);
    tokens.push(...bigrams(chars), chars[chars.length - 1]!);
  }
  return tokens.join(' ');
}

/** One FTS5 string literal: user text can never become FTS5 syntax (`"`, `*`, `OR`, `NEAR`, `:`…). */
function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export interface MatchQueries {
  /** Every CJK run as a phrase: its characters side by side, as typed. */
  exact: string;
  /**
   * Undefined unless the query has a CJK run of 3+ characters. Each such run becomes its
   * characters near each other, in any order: `剪頭髮` then finds `剪了頭髮` (a particle in
   * between) and `頭髮剪短`, which no dictionary-free phrase can.
   */
  near: string | undefined;
  /**
   * The exact query's words when each is one indexed token — a CJK run of two characters, the
   * common Chinese word — so recall can rank them itself (recall-term-rank.ts); else undefined.
   */
  words?: string[];
}

/** Tokens between the characters of a run in a `near` query, per character of the run. */
const NEAR_TOKENS_PER_CHAR = 2;

/**
 * FTS5 MATCH expressions for what a user typed, or undefined when nothing in it can be
 * searched (only punctuation or spaces). Terms are ANDed: a CJK run of two or more characters
 * is a phrase of its bigrams, a single CJK character and every other word are prefix terms.
 * A single character is a prefix term because it is indexed as the start of a bigram.
 */
export function buildMatchQueries(query: string): MatchQueries | undefined {
  const exact: string[] = [];
  const near: string[] = [];
  const words: string[] = [];
  let loosened = false;
  for (const { text: run, cjk } of runsOf(query)) {
    if (cjk && Array.from(run).length === 2) words.push(run);
    if (!cjk) {
      const term = `${quote(run.toLowerCase())}*`;
      exact.push(term);
      near.push(term);
      continue;
    }
    const chars = Array.from(run);
    const term = chars.length === 1 ? `${quote(run)}*` : quote(bigrams(chars).join(' '));
    exact.push(term);
    if (chars.length < 3) {
      near.push(term);
      continue;
    }
    loosened = true;
    near.push(`NEAR(${chars.map((char) => `${quote(char)}*`).join(' ')}, ${chars.length * NEAR_TOKENS_PER_CHAR})`);
  }
  if (!exact.length) return undefined;
  return {
    exact: exact.join(' AND '),
    near: loosened ? near.join(' AND ') : undefined,
    ...(words.length === exact.length ? { words } : {}),
  };
}
