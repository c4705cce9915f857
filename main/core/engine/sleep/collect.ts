import type { StoredMemory } from '../../../../common/memory.js';
import { parseLooseDate } from '../../platform/config/clock.js';
import { probeStateOf } from '../../store/memory/probes.js';
import type { CatalogSnapshot } from './memory-catalog.js';
import type { CollectedBatch, ExistingMemoryRef, InboxItem } from './sleep-plan.js';
import { isSuperseded } from '../../store/memory/superseded.js';

/**
 * collect (SLEEP-4, SLEEP-5): the oldest inbox items into one batch, whole items only, plus an
 * index of the existing memories the planner may merge into or link to.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/collect.ts".
 */
export interface CollectLimits {
  /** Inbox items per batch (ROLE_SLEEP_BATCH, halved on failure). */
  items: number;
  /** Material characters per batch (ROLE_SLEEP_COLLECT_LIMIT). */
  chars: number;
  /** Existing memories listed at most (ROLE_SLEEP_EXISTING_LIMIT). */
  existing: number;
}

/** The share of the material budget kept for the EXISTING block. */
export const EXISTING_SHARE = 0.3;
const GIST_CHARS = 160;

function itemChars(item: Pick<InboxItem, 'summary' | 'body' | 'tags' | 'cues'>): number {
  return item.summary.length + item.body.length + item.tags.join('、').length + item.cues.join('、').length;
}

function refChars(ref: ExistingMemoryRef): number {
  return ref.summary.length + ref.gist.length + ref.tags.join('、').length + ref.cues.join('、').length;
}

/** Cut `text` to at most `max` characters, at the last sentence end when there is one. */
export function cutAtSentenceEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, Math.max(0, max));
  let cut = -1;
  for (const match of head.matchAll(/[。！？!?；;…\n]|\.(?=\s)/g)) cut = match.index + match[0].length;
  // A "sentence end" in the first fifth is not worth keeping only that much for.
  return (cut > max / 5 ? head.slice(0, cut) : head).trimEnd();
}

function timeOf(memory: StoredMemory): number {
  return parseLooseDate(memory.created)?.getTime() ?? Number.MAX_SAFE_INTEGER;
}

/** Oldest first; the id (which starts with the time) and then the path break ties stably. */
export function oldestFirst(inbox: readonly StoredMemory[]): StoredMemory[] {
  return inbox
    .map((memory) => ({ memory, time: timeOf(memory) }))
    .sort(
      (a, b) =>
        a.time - b.time || (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0) || (a.memory.path < b.memory.path ? -1 : 1),
    )
    .map((entry) => entry.memory);
}

function toInboxItem(memory: StoredMemory): InboxItem {
  return {
    id: memory.id,
    path: memory.path,
    summary: memory.summary,
    body: memory.body,
    tags: memory.tags,
    cues: memory.cues,
    priority: memory.priority,
    memory_type: memory.memory_type,
    relevance: memory.relevance,
    created: memory.created,
    ...(memory.expires ? { expires: memory.expires } : {}),
  };
}

/** The body's first paragraph, for similarity; the whole body is not sent (sleep-plan.ts). */
function gistOfBody(body: string): string {
  const first = body.trim().split(/\r?\n\s*\r?\n/)[0] ?? '';
  const line = first
    .replace(/\s+/g, ' ')
    .replace(/^(主旨|gist)\s*[:：]\s*/i, '')
    .trim();
  return line.length > GIST_CHARS ? `${line.slice(0, GIST_CHARS - 1)}…` : line;
}

/**
 * PM-4: a denied probe asks for a correction at the next consolidation. Once apply has written
 * the correction it clears `needs_correction` and stamps `probe_corrected`, so the same denial
 * is not corrected again every night; a new denial sets `needs_correction` again.
 */
export function needsCorrection(memory: StoredMemory): boolean {
  if (probeStateOf(memory) !== 'denied') return false;
  return memory.extra.needs_correction === true || memory.extra.probe_corrected === undefined;
}

function toRef(memory: StoredMemory): ExistingMemoryRef {
  const ref: ExistingMemoryRef = {
    id: memory.id,
    category: memory.category,
    summary: memory.summary,
    tags: memory.tags,
    cues: memory.cues,
    priority: memory.priority,
    memory_type: memory.memory_type,
    links: memory.links,
    gist: gistOfBody(memory.body),
    // In-process only: the CLI planner's prompt carries the gist, never the whole body.
    body: memory.body,
  };
  if (needsCorrection(memory)) {
    ref.needsCorrection = true;
    if (typeof memory.extra.probe_note === 'string' && memory.extra.probe_note.trim()) ref.correctionNote = memory.extra.probe_note.trim();
  }
  return ref;
}

/** Latin words and CJK character bigrams: enough to tell which memories share a topic. */
function topicWords(text: string): Set<string> {
  const words = new Set<string>();
  const lower = text.toLowerCase();
  for (const match of lower.matchAll(/[a-z0-9][a-z0-9_.+-]{1,}/g)) words.add(match[0]);
  for (const run of lower.matchAll(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu)) {
    const chars = Array.from(run[0]);
    for (let i = 0; i + 1 < chars.length; i++) words.add(chars[i]! + chars[i + 1]!);
  }
  return words;
}

/**
 * The existing memories to list: denied probes first (their correction is due), then those
 * sharing tags or words with the batch, then higher priority, then more links (SLEEP-4: "an index
 * of existing memories with priority/type/links"). Within the count and character budget.
 */
function chooseExisting(
  batch: readonly InboxItem[],
  consolidated: readonly StoredMemory[],
  limit: number,
  budget: number,
): ExistingMemoryRef[] {
  if (limit <= 0) return [];
  const batchTags = new Set(batch.flatMap((item) => item.tags.map((tag) => tag.toLowerCase())));
  const batchWords = topicWords(batch.map((item) => `${item.summary} ${item.body} ${item.cues.join(' ')}`).join('\n'));
  // Issue 12: a superseded memory is history; planners neither merge into it nor replace it again.
  const scored = consolidated
    .filter((memory) => !isSuperseded(memory))
    .map((memory) => {
      const tags = memory.tags.filter((tag) => batchTags.has(tag.toLowerCase())).length;
      let words = 0;
      for (const word of topicWords(`${memory.summary} ${memory.tags.join(' ')} ${memory.cues.join(' ')}`))
        if (batchWords.has(word)) words++;
      return { memory, due: needsCorrection(memory) ? 1 : 0, shared: tags * 3 + words };
    });
  scored.sort(
    (a, b) =>
      b.due - a.due ||
      b.shared - a.shared ||
      b.memory.priority - a.memory.priority ||
      b.memory.links.length - a.memory.links.length ||
      a.memory.id.localeCompare(b.memory.id),
  );
  const chosen: ExistingMemoryRef[] = [];
  let used = 0;
  for (const { memory } of scored) {
    if (chosen.length >= limit) break;
    const ref = toRef(memory);
    const size = refChars(ref);
    if (used + size > budget && chosen.length > 0) continue; // a smaller one may still fit
    chosen.push(ref);
    used += size;
  }
  return chosen;
}

export function batchHeader(count: number, left: number, existing: number, cut: boolean): string {
  const lines = [`本批 ${count} 則，另有 ${left} 則留待下批。`, `既有記憶索引 ${existing} 則。`];
  if (cut) lines.push('第 1 則單獨就超過素材上限，內文已在句末截斷（原文完整保存於 archive/raw）。');
  return lines.join('\n');
}

/** One batch from the inbox, oldest first; undefined when the inbox is empty. */
export function collectBatch(role: string, snapshot: CatalogSnapshot, limits: CollectLimits): CollectedBatch | undefined {
  const waiting = oldestFirst(snapshot.inbox);
  if (waiting.length === 0) return undefined;
  const itemBudget = Math.max(1, Math.floor(limits.chars * (1 - EXISTING_SHARE)));
  const items: InboxItem[] = [];
  let used = 0;
  let cut = false;
  for (const memory of waiting) {
    if (items.length >= Math.max(1, limits.items)) break;
    const item = toInboxItem(memory);
    const size = itemChars(item);
    if (items.length === 0 && size > itemBudget) {
      const room = Math.max(1, itemBudget - (size - item.body.length));
      item.body = cutAtSentenceEnd(item.body, room);
      cut = true;
      items.push(item);
      used += itemChars(item);
      break;
    }
    if (used + size > itemBudget && items.length > 0) break;
    items.push(item);
    used += size;
  }
  const existingBudget = Math.max(0, limits.chars - used);
  const existing = chooseExisting(items, snapshot.consolidated, limits.existing, existingBudget);
  const left = waiting.length - items.length;
  const header = batchHeader(items.length, left, existing.length, cut);
  const materialChars = header.length + used + existing.reduce((sum, ref) => sum + refChars(ref), 0);
  return { role, items, existing, left, header, materialChars };
}
