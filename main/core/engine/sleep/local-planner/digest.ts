import { GENERIC_TAGS } from './text-features.js';

/**
 * MEM-10's digest line for DIGESTS.md and state.json's last_sleep_digest, in zh-TW, one or two
 * sentences: what was done to how many items, then the main topics of the memories it kept.
 */
export interface DigestCounts {
  items: number;
  created: number;
  merged: number;
  discarded: number;
  corrected: number;
}

const MAX_TOPICS = 3;

/**
 * Each kept memory's topic tags (kind tags such as 偏好/情緒 left out). A tag more memories share
 * ranks first; on a tie, the one its memories list earlier (a memory's first tag is its main one).
 */
export function mainTopics(tagLists: readonly (readonly string[])[]): string[] {
  const counts = new Map<string, { tag: string; count: number; rank: number; first: number }>();
  let order = 0;
  for (const tags of tagLists) {
    const topical = [...new Set(tags.map((t) => t.trim()).filter((t) => t && !GENERIC_TAGS.has(t.toLowerCase())))];
    topical.forEach((tag, rank) => {
      const key = tag.toLowerCase();
      const entry = counts.get(key) ?? { tag, count: 0, rank, first: order++ };
      entry.count += 1;
      entry.rank = Math.min(entry.rank, rank);
      counts.set(key, entry);
    });
  }
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || a.rank - b.rank || a.first - b.first)
    .slice(0, MAX_TOPICS)
    .map((entry) => entry.tag);
}

export function digestText(counts: DigestCounts, topics: readonly string[]): string {
  const parts = [`新增 ${counts.created}`, `合併 ${counts.merged}`, `捨棄 ${counts.discarded}`];
  if (counts.corrected) parts.push(`更正 ${counts.corrected}`);
  const first = `整理了 ${counts.items} 則：${parts.join('、')}。`;
  return topics.length ? `${first}主要主題：${topics.join('、')}。` : first;
}
