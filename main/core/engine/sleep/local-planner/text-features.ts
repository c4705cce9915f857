import { matchForm } from '../../../platform/text/cue-words.js';

/**
 * CJK-aware similarity for the local planner's dedupe and links (X-LOCAL), without a dictionary.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/local-planner/text-features.ts".
 */
export interface Features {
  /** Interned feature ids (FeatureSpace), ascending, with their weights at the same index. */
  readonly ids: Int32Array;
  readonly weights: Float64Array;
  /** Σ of the weights, computed once: similarity runs batch × existing times per plan. */
  readonly total: number;
}

/**
 * Feature strings → small integers, so that comparing two memories is a merge of two sorted
 * arrays instead of string hashing (a consolidation of 1,000 items makes ~120,000 comparisons).
 * One space per planner; features from different spaces must never be compared.
 */
export class FeatureSpace {
  private readonly ids = new Map<string, number>();

  get size(): number {
    return this.ids.size;
  }

  id(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(key, id);
    }
    return id;
  }

  clear(): void {
    this.ids.clear();
  }
}

const FRAMING = new RegExp(
  [
    '使用者對角色的互動方式給出回饋',
    '使用者表達的感受',
    '角色本輪沒有文字回應',
    '角色當時的回應',
    '使用者原話',
    '使用者表示',
    '使用者表達',
    '使用者提到',
    '角色回應',
    '有效範圍',
    '還不確定',
    '主旨',
    '細節',
    '依據',
    '使用者',
    '角色',
    "user feedback on the role's manner",
    'the role gave no text reply this turn',
    'the role answered',
    "user's words",
    "role's answer",
    'user mentioned',
    'user expressed',
    'user said',
    'valid for',
  ].join('|'),
  'gu',
);

/**
 * Characters that carry grammar rather than topic. A bigram of two of them (我們, 了嗎, 這個) says
 * nothing about what a memory is about; one with a single such character (很累, 不要) still does,
 * a little. Kept here rather than shared with capture's tag extractor, whose list serves a
 * different purpose (which pairs are words worth showing as tags).
 */
const FUNCTION_CHARS = new Set(
  Array.from(
    '的了是我你妳他她它們在有和就都也很不嗎呢吧啊喔哦呀嘛這那個一要會說到著把被讓給跟與及或而但如果因為所以還再又才已經可以能沒什麼怎麼樣些點下上中來去過得地之其',
  ),
);

/** Time and filler words every kind of memory uses: not a topic shared by two memories. */
const STOP_BIGRAMS = new Set([
  '今天',
  '昨天',
  '明天',
  '剛剛',
  '剛才',
  '現在',
  '時候',
  '覺得',
  '一下',
  '一直',
  '真的',
  '好像',
  '然後',
  '還是',
  '但是',
  '已經',
  '可能',
  '應該',
  '希望',
  '知道',
  '東西',
  '事情',
]);

const LATIN_STOP_WORDS = new Set(
  "the and for you your with this that have has had was were are but not can could would should will just like from what when then than they them there their here about into also only some more very really please thanks thank okay yes let lets get got make made use used using need want does did done its it's i'm don't can't".split(
    ' ',
  ),
);

const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30FC';
const RUNS = new RegExp(`[${CJK_CLASS}]+|(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}])+`, 'gu');
const CJK_RUN = new RegExp(`^[${CJK_CLASS}]+$`, 'u');

const WEIGHT = { topicBigram: 1, halfBigram: 0.3, singleChar: 0.2, latinWord: 1.5, tag: 1.5 } as const;

/** The text as the similarity sees it: matching form, capture framing removed. */
export function comparableText(text: string): string {
  return matchForm(text).replace(FRAMING, ' ');
}

function add(bag: Map<string, number>, key: string, weight: number): void {
  // Max, not sum: a word said three times in one memory is still one topic.
  if ((bag.get(key) ?? 0) < weight) bag.set(key, weight);
}

/** Tags that say what kind of memory it is, not what it is about (capture adds them to many items). */
export const GENERIC_TAGS = new Set([
  '偏好',
  '情緒',
  '關係',
  '互動回饋',
  '臨時授權',
  'preference',
  'emotion',
  'relationship',
  'feedback',
  'temporary',
]);

export function featuresOf(space: FeatureSpace, texts: readonly string[], tags: readonly string[] = []): Features {
  const bag = new Map<string, number>();
  // One normalisation for all the texts: a line break separates runs like any punctuation.
  for (const run of comparableText(texts.join('\n')).match(RUNS) ?? []) {
    if (!CJK_RUN.test(run)) {
      if (run.length >= 2 && !LATIN_STOP_WORDS.has(run)) add(bag, run, WEIGHT.latinWord);
      continue;
    }
    const chars = Array.from(run);
    if (chars.length === 1 && !FUNCTION_CHARS.has(chars[0]!)) add(bag, chars[0]!, WEIGHT.singleChar);
    for (let i = 0; i + 1 < chars.length; i += 1) {
      const pair = chars[i]! + chars[i + 1]!;
      if (STOP_BIGRAMS.has(pair)) continue;
      const grammar = Number(FUNCTION_CHARS.has(chars[i]!)) + Number(FUNCTION_CHARS.has(chars[i + 1]!));
      if (grammar === 0) add(bag, pair, WEIGHT.topicBigram);
      else if (grammar === 1) add(bag, pair, WEIGHT.halfBigram);
    }
  }
  for (const tag of tags.length ? matchForm(tags.join('\n')).split('\n') : []) {
    const key = tag.trim();
    if (key && !GENERIC_TAGS.has(key)) add(bag, `#${key}`, WEIGHT.tag);
  }
  const entries = [...bag].map(([key, weight]) => [space.id(key), weight] as const).sort((a, b) => a[0] - b[0]);
  const ids = new Int32Array(entries.length);
  const weights = new Float64Array(entries.length);
  let total = 0;
  entries.forEach(([id, weight], i) => {
    ids[i] = id;
    weights[i] = weight;
    total += weight;
  });
  return { ids, weights, total };
}

/** Weighted Dice: 2·Σmin / (Σa + Σb), 0 when either side is empty. */
export function similarity(a: Features, b: Features): number {
  if (a.total === 0 || b.total === 0) return 0;
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < a.ids.length && j < b.ids.length) {
    const x = a.ids[i]!;
    const y = b.ids[j]!;
    if (x === y) {
      shared += Math.min(a.weights[i]!, b.weights[j]!);
      i += 1;
      j += 1;
    } else if (x < y) i += 1;
    else j += 1;
  }
  return (2 * shared) / (a.total + b.total);
}

function squash(text: string): string {
  return comparableText(text).replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Recently squashed bodies: callers test many parts against a few bodies in a row. */
const squashedWholes = new Map<string, string>();
const SQUASHED_KEPT = 16;

function squashedWhole(whole: string): string {
  let squashed = squashedWholes.get(whole);
  if (squashed === undefined) {
    if (squashedWholes.size >= SQUASHED_KEPT) squashedWholes.delete(squashedWholes.keys().next().value!);
    squashed = squash(whole);
    squashedWholes.set(whole, squashed);
  }
  return squashed;
}

/**
 * True when the words of `part` already appear, in order, inside `whole` — framing, width, case,
 * spacing and punctuation set aside. "Nothing new" for dedupe and merges.
 */
export function containsWords(whole: string, part: string): boolean {
  const needle = squash(part);
  return needle.length > 0 && squashedWhole(whole).includes(needle);
}
