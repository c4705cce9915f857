import { EMOTION, matchForm } from '../../../platform/text/cue-words.js';

/**
 * The two numbers PM-3's rules are written against (seed 001 §短期 → 長期的轉入條件). Kioku's
 * memories carry a priority (1–5) and relevance words instead of seed 001's salience and emotion
 * vectors, so both are derived, the same way every time:
 *
 * - salience = priority × 15 + relevance bonuses, 0–100. Priority 4 alone reaches R1's 60; an
 *   everyday priority-3 item sits at 45, which is exactly R2's "mean ≥ 45" bar for two items.
 * - emotional change = 15 per feeling word + 10 when it is intensified (好累, 很開心, 超難過),
 *   0–100. One plain 開心 (15) is not R3's 25; 好開心 or two feelings are.
 */
const RELEVANCE_BONUS: Readonly<Record<string, number>> = {
  explicit: 10,
  emotional: 10,
  repeated: 10,
  future: 5,
  novelty: 5,
  temporary: -10,
};

export function salienceOf(priority: number, relevance: readonly string[]): number {
  const base = Math.min(5, Math.max(1, Math.round(priority) || 3)) * 15;
  const bonus = [...new Set(relevance)].reduce((sum, word) => sum + (RELEVANCE_BONUS[word] ?? 0), 0);
  return Math.min(100, Math.max(0, base + bonus));
}

const EMOTION_ALL = new RegExp(EMOTION.source, 'g');
const INTENSIFIER = /(?:好|很|超|太|非常|真的|特別|好想|so|very|really)\s?$/u;

export interface EmotionReading {
  /** 0–100 */
  change: number;
  /** The feeling words found, in order, once each: the emotion anchor of R3. */
  words: string[];
}

export function emotionOf(texts: readonly string[]): EmotionReading {
  const text = matchForm(texts.join('\n'));
  const words: string[] = [];
  let change = 0;
  for (const match of text.matchAll(EMOTION_ALL)) {
    const word = match[0].trim();
    change += 15;
    if (INTENSIFIER.test(text.slice(Math.max(0, match.index - 3), match.index))) change += 10;
    if (!words.includes(word)) words.push(word);
  }
  return { change: Math.min(100, change), words };
}
