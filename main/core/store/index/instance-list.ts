import { COLUMN_WEIGHTS } from './recall-boost.js';

/**
 * A word's instance list as recall-term-rank.ts reads it from memories_vocab — one string,
 * `doc*5+column code,…` ascending by doc — turned into per-memory weighted frequencies.
 *
 * Two readers of the same list, for the two kinds of process that rank (issue 17). A fresh
 * process (a CLI recall without the daemon) parses once, before V8 optimises anything: there
 * JSON.parse, native, costs half of a loop over the 100,000-odd characters. A long-lived one (the
 * daemon, the app) parses on every recall, and the loop, optimised, reads the characters
 * straight into the arrays a third faster than JSON.parse builds an array of numbers and the
 * loop after it reads that (0.42 against 0.63 ms a common word at 100k memories). So the first
 * few lists of a process go through JSON.parse and the rest by hand; both give the same answer
 * (instance-list.test.ts compares them on random and malformed lists).
 */
export interface WordMatches {
  /** Memories holding the word, ascending. */
  docs: Int32Array;
  /** Per memory, the word's weighted frequency (a summary hit counts 3, tags and cues 2, body 1). */
  freq: Int32Array;
  /**
   * Per memory, its rank slot (rank-pages.ts), SLOT_BYTES each, when the word postings give them
   * (word-postings.ts); otherwise the ranking reads them from the rank pages (rank-slots.ts).
   */
  slots?: Uint8Array;
}

/** Column weight by its code (the first letter of its name modulo 5): summary, tags, (none), body, cues. */
const WEIGHT_BY_COLUMN_CODE: readonly number[] = [COLUMN_WEIGHTS[0], COLUMN_WEIGHTS[1], 0, COLUMN_WEIGHTS[3], COLUMN_WEIGHTS[2]];

/** Past this a rowid does not fit the Int32Arrays; the SQL ranking takes such an index. */
const MAX_DOC = 0x7fffffff;

/** Lists parsed natively before the loop takes over: past them, V8 has had reason to optimise. */
const NATIVE_PARSES = 4;
let parsed = 0;

/**
 * Undefined when the list is out of order, names a column the table does not have, or is not a
 * comma-separated list (SQLite's group_concat of integers always is).
 */
export function parseInstances(list: string | null): WordMatches | undefined {
  parsed += 1;
  return parsed <= NATIVE_PARSES ? parseWithJson(list) : parseByHand(list);
}

/**
 * The native reader: JSON.parse, then one loop over the numbers. Its loop calls nothing (a call
 * per instance is what an unoptimised loop pays most for) and so repeats parseByHand's few lines.
 */
export function parseWithJson(list: string | null): WordMatches | undefined {
  let values: number[];
  try {
    values = list ? (JSON.parse(`[${list}]`) as number[]) : [];
  } catch {
    return undefined;
  }
  const docs = new Int32Array(values.length);
  const freq = new Int32Array(values.length);
  let count = 0;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i]!;
    const doc = Math.floor(value / 5);
    const weight = WEIGHT_BY_COLUMN_CODE[value % 5];
    if (!weight) return undefined;
    if (count > 0 && docs[count - 1] === doc) {
      freq[count - 1] = freq[count - 1]! + weight;
      continue;
    }
    if (doc > MAX_DOC || (count > 0 && docs[count - 1]! > doc)) return undefined;
    docs[count] = doc;
    freq[count] = weight;
    count += 1;
  }
  return { docs: docs.subarray(0, count), freq: freq.subarray(0, count) };
}

const COMMA = 0x2c;
const ZERO = 0x30;
const NINE = 0x39;
/** 15 digits always fit a double exactly; a longer number is no instance this index can hold. */
const MAX_DIGITS = 15;

/** The reader by hand: each number from its digits straight into the arrays, one pass. */
export function parseByHand(list: string | null): WordMatches | undefined {
  if (!list) return { docs: new Int32Array(0), freq: new Int32Array(0) };
  // At most one instance per two characters ("1,").
  const capacity = (list.length + 1) >> 1;
  const docs = new Int32Array(capacity);
  const freq = new Int32Array(capacity);
  let count = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= list.length; i += 1) {
    const code = i < list.length ? list.charCodeAt(i) : COMMA;
    if (code >= ZERO && code <= NINE) {
      value = value * 10 + (code - ZERO);
      digits += 1;
      if (digits > MAX_DIGITS) return undefined;
      continue;
    }
    if (code !== COMMA || digits === 0) return undefined;
    const doc = Math.floor(value / 5);
    const weight = WEIGHT_BY_COLUMN_CODE[value - doc * 5];
    value = 0;
    digits = 0;
    if (!weight) return undefined;
    if (count > 0 && docs[count - 1] === doc) {
      freq[count - 1] = freq[count - 1]! + weight;
      continue;
    }
    if (doc > MAX_DOC || (count > 0 && docs[count - 1]! > doc)) return undefined;
    docs[count] = doc;
    freq[count] = weight;
    count += 1;
  }
  return { docs: docs.subarray(0, count), freq: freq.subarray(0, count) };
}
