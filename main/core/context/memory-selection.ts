import { hasWarmth, type ConsolidatedCategory, type Memory, type MemoryType } from '../../../common/memory.js';
import { parseLooseDate } from '../config/clock.js';
import { isExpired } from '../memory/memory-expiry.js';

/**
 * Which long-term memories SessionStart loads, and in what order (CTX-4, seed 000 §記憶 載入順序):
 * important and interest in full text when their priority reaches ROLE_LOAD_FULL_MIN_PRIORITY;
 * the rest as summary + tags, ordered skill → news → daily → other, "優先保留 rule／preference／
 * emotional／procedural 與有 links 的記憶". The inbox is a block of its own; expired memories
 * (MEM-8) are never loaded.
 */
export interface SelectionOptions {
  fullMinPriority: number;
  digestMinPriority: number;
  now: Date;
}

export interface LongTermSelection<M extends Memory = Memory> {
  /** Full-text candidates, most valuable first. */
  full: M[];
  /** Summary-only candidates, most valuable first. */
  digest: M[];
}

/**
 * MEM-5 / seed 000 §有溫度的記憶優先: emotional (40) sits above procedural; episodic was raised
 * from 10 to 30, level with semantic, because "「我們一起經歷過什麼」永遠最先被字元預算截掉".
 */
export const MEMORY_TYPE_WEIGHT: Record<MemoryType, number> = {
  rule: 60,
  preference: 50,
  emotional: 40,
  procedural: 35,
  episodic: 30,
  semantic: 30,
};

/** Types seed 000 treats as durable: the digest block keeps them whatever their priority. */
const DURABLE_TYPES: ReadonlySet<MemoryType> = new Set(['rule', 'preference', 'emotional', 'procedural']);

/**
 * Display order of the digest block. Low-priority important/interest memories have no full-text
 * place, yet they are still important: they lead, then the seed's skill → news → daily → other.
 */
export const DIGEST_CATEGORY_ORDER: readonly ConsolidatedCategory[] = ['important', 'interest', 'skill', 'news', 'daily', 'other'];

interface ValueKey {
  warm: number;
  weight: number;
  linked: number;
  priority: number;
  time: number;
}

/**
 * Sorting thousands of memories compares each one many times; working out its warmth and parsing
 * its date on every comparison was most of a SessionStart's assembly (X-PERF). Memories are not
 * changed once read, so the key is computed once per object.
 */
const keys = new WeakMap<Memory, ValueKey>();

function valueKey(memory: Memory): ValueKey {
  let key = keys.get(memory);
  if (!key) {
    key = {
      warm: Number(hasWarmth(memory)),
      weight: MEMORY_TYPE_WEIGHT[memory.memory_type],
      linked: Number(memory.links.length > 0),
      priority: memory.priority,
      time: parseLooseDate(memory.updated)?.getTime() ?? parseLooseDate(memory.created)?.getTime() ?? 0,
    };
    keys.set(memory, key);
  }
  return key;
}

/**
 * Value order, used to decide what survives a budget: warmth first — MEM-6 puts it "在排序上先於
 * 型態權重" — then type weight, links, priority, recency; the id keeps ties stable.
 */
export function compareMemoryValue(a: Memory, b: Memory): number {
  return compareKeyed({ memory: a, key: valueKey(a) }, { memory: b, key: valueKey(b) });
}

interface Keyed<M extends Memory> {
  memory: M;
  key: ValueKey;
}

function compareKeyed(a: Keyed<Memory>, b: Keyed<Memory>): number {
  const ka = a.key;
  const kb = b.key;
  return kb.warm - ka.warm || kb.weight - ka.weight || kb.linked - ka.linked || kb.priority - ka.priority || kb.time - ka.time || a.memory.id.localeCompare(b.memory.id);
}

/** Most valuable first; each key looked up once, not once per comparison. */
function byValue<M extends Memory>(memories: readonly M[]): M[] {
  return memories
    .map((memory) => ({ memory, key: valueKey(memory) }))
    .sort(compareKeyed)
    .map((keyed) => keyed.memory);
}

export function isFullTextCandidate(memory: Memory, options: Pick<SelectionOptions, 'fullMinPriority'>): boolean {
  return (memory.category === 'important' || memory.category === 'interest') && memory.priority >= options.fullMinPriority;
}

/**
 * Summary level: priority ≥ ROLE_LOAD_DIGEST_MIN_PRIORITY, or linked ("低於門檻但有 links 的記憶
 * 仍可載入摘要"), or warm (MEM-6 "passes the digest priority filter"), or a durable type
 * (seed 000 §情緒記憶不會被偏好吃掉: "總結區塊視為耐久型態（不受優先度門檻篩除）").
 */
export function isDigestCandidate(memory: Memory, options: Pick<SelectionOptions, 'digestMinPriority'>): boolean {
  return memory.priority >= options.digestMinPriority || memory.links.length > 0 || hasWarmth(memory) || DURABLE_TYPES.has(memory.memory_type);
}

/** Candidates in value order, expired ones still in: that depends on the moment, the rest does not. */
function sortedCandidates<M extends Memory>(memories: readonly M[], options: Omit<SelectionOptions, 'now'>): LongTermSelection<M> {
  const full: M[] = [];
  const digest: M[] = [];
  for (const memory of memories) {
    if (memory.category === 'inbox') continue;
    if (isFullTextCandidate(memory, options)) full.push(memory);
    else if (isDigestCandidate(memory, options)) digest.push(memory);
  }
  return { full: byValue(full), digest: byValue(digest) };
}

/**
 * The daemon hands the same frozen list of memories to every event until a file changes
 * (memory-cache.ts); its sorted candidates are kept with it, so a SessionStart only filters out
 * what has expired since (X-PERF). A list that is not frozen may still change and is sorted anew.
 */
const sortedByList = new WeakMap<readonly Memory[], Map<string, LongTermSelection<Memory>>>();

export function selectLongTermMemories<M extends Memory>(memories: readonly M[], options: SelectionOptions): LongTermSelection<M> {
  let sorted: LongTermSelection<M>;
  if (Object.isFrozen(memories)) {
    const key = `${options.fullMinPriority}:${options.digestMinPriority}`;
    let byOptions = sortedByList.get(memories);
    if (!byOptions) sortedByList.set(memories, (byOptions = new Map()));
    const known = byOptions.get(key) as LongTermSelection<M> | undefined;
    sorted = known ?? sortedCandidates(memories, options);
    if (!known) byOptions.set(key, sorted);
  } else sorted = sortedCandidates(memories, options);
  const live = (memory: M) => !isExpired(memory, options.now);
  return { full: sorted.full.filter(live), digest: sorted.digest.filter(live) };
}

/** Chosen memories in the order they are shown: by category (DIGEST_CATEGORY_ORDER), value within. */
export function inDisplayOrder<M extends Memory>(memories: readonly M[]): M[] {
  const rank = (memory: Memory) => DIGEST_CATEGORY_ORDER.indexOf(memory.category as ConsolidatedCategory);
  return memories
    .map((memory) => ({ memory, key: valueKey(memory), rank: rank(memory) }))
    .sort((a, b) => a.rank - b.rank || compareKeyed(a, b))
    .map((keyed) => keyed.memory);
}
