import type { InboxItem } from '../sleep-plan.js';
import type { ItemParts } from './item-parts.js';
import { comparableText } from './text-features.js';

/**
 * NREM's 去噪 (seed 000 §睡眠與整理流程): an item that says nothing but a greeting, an
 * acknowledgement or a bare thanks is discarded with a reason, and so is one with no words left
 * after cleaning. Only what the *user* side says is tested: the role answers every greeting
 * politely, and that politeness is no memory either.
 *
 * An item the user explicitly asked to keep (relevance `explicit`) or marked with the highest
 * priority is never noise: the user's word wins over a word list.
 */
const NOISE_WORDS = new RegExp(
  [
    '謝謝(?:你|妳|您)?(?:啦|喔|囉|了)?',
    '感謝(?:你|妳|您)?',
    '多謝',
    '謝啦',
    '你好',
    '妳好',
    '您好',
    '哈囉',
    '嗨',
    '安安',
    '早安',
    '午安',
    '晚安',
    '早',
    '好的?(?:喔|啊|呀|啦|唷)?',
    '嗯+',
    '喔+',
    '哦+',
    '欸',
    '收到',
    '了解',
    '瞭解',
    '知道了',
    '沒問題',
    '讚',
    'thank you(?: very much| so much)?',
    'thanks(?: a lot)?',
    'thx',
    'okay',
    'ok',
    'hello',
    'hi',
    'hey',
    'good (?:morning|night|evening)',
    'got it',
    'sure',
    'yes',
    'yeah',
    'yep',
    'cool',
    'no problem',
  ].join('|'),
  'gu',
);

/** Emoji, punctuation, symbols and spaces: what a greeting is padded with. */
const PADDING = /[\p{Extended_Pictographic}\p{P}\p{S}\p{Z}\s\u200d\ufe0f]+/gu;

export type NoiseReason = 'empty' | 'greeting';

export function noiseOf(item: Pick<InboxItem, 'summary' | 'priority' | 'relevance'>, parts: ItemParts): NoiseReason | undefined {
  if (item.relevance.includes('explicit') || item.priority >= 5) return undefined;
  const userSide = [item.summary, ...parts.userWords, ...parts.otherLines].join('\n');
  const words = comparableText(userSide).replace(PADDING, ' ').trim();
  if (!words) return 'empty';
  const rest = words.replace(NOISE_WORDS, ' ').replace(PADDING, '');
  return rest ? undefined : 'greeting';
}

export const NOISE_REASONS: Record<NoiseReason, string> = {
  empty: 'noise: 清理後沒有內容',
  greeting: 'noise: 只有問候、應答或客套話',
};
