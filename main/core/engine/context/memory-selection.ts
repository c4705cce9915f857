import { hasWarmth, type ConsolidatedCategory, type Memory, type MemoryType } from '../../../../common/memory.js';
import { parseLooseDate } from '../../platform/config/clock.js';
import { loadExpiryTime } from '../../store/memory/memory-expiry.js';
import { isSuperseded } from '../../store/memory/superseded.js';
import { isIdentityMemory } from '../../store/memory/identity-memory.js';
import { isPinned } from '../../store/memory/pinned.js';

/**
 * Which long-term memories SessionStart loads, and in what order (CTX-4): important and interest
 * in full text above a priority, the rest as summary + tags; expired memories (MEM-8) never.
 * Design notes: docs/design-notes.md, "main/core/engine/context/memory-selection.ts".
 */
export interface SelectionOptions {
  fullMinPriority: number;
  digestMinPriority: number;
  now: Date;
  /**
   * The role the memories belong to, when the list is one of the daemon's frozen lists: a new
   * list of that role is then sorted from the previous one's order (see `sortedFromPrevious`).
   */
  roleId?: string;
}

export interface LongTermSelection<M extends Memory = Memory> {
  /** Full-text candidates, most valuable first. */
  full: M[];
  /** Summary-only candidates, most valuable first. */
  digest: M[];
}

/**
 * MEM-5: emotional (40) sits above procedural; episodic was raised from 10 to 30, level with
 * semantic, because "what we went through together" was always the first thing the character
 * budget cut.
 */
export const MEMORY_TYPE_WEIGHT: Record<MemoryType, number> = {
  rule: 60,
  preference: 50,
  emotional: 40,
  procedural: 35,
  episodic: 30,
  semantic: 30,
};

/** Durable types (CAP-4, MEM-5): the digest block keeps them whatever their priority. */
const DURABLE_TYPES: ReadonlySet<MemoryType> = new Set(['rule', 'preference', 'emotional', 'procedural']);

/**
 * Display order of the digest block. Low-priority important/interest memories have no full-text
 * place, yet they are still important: they lead, then CTX-4's skill → news → daily → other.
 */
export const DIGEST_CATEGORY_ORDER: readonly ConsolidatedCategory[] = ['important', 'interest', 'skill', 'news', 'daily', 'other'];

interface ValueKey {
  /** Issue 12: who the user is (their name) comes first: the budget never cuts it. */
  identity: number;
  /** Issue 16: what the user pinned comes next, so a budget cuts it last. */
  pinned: number;
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
      identity: Number(isIdentityMemory(memory)),
      pinned: Number(isPinned(memory)),
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
 * Value order, used to decide what survives a budget: warmth first — MEM-6 puts it ahead of the
 * type weight — then type weight, links, priority, recency; the id, then the category (the same file
 * name may sit in two folders), make it a total order, so that any way of sorting — a full sort
 * or a merge into an earlier order — gives the same list.
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
  return (
    kb.identity - ka.identity ||
    kb.pinned - ka.pinned ||
    kb.warm - ka.warm ||
    kb.weight - ka.weight ||
    kb.linked - ka.linked ||
    kb.priority - ka.priority ||
    kb.time - ka.time ||
    compareText(a.memory.id, b.memory.id) ||
    compareText(a.memory.category, b.memory.category)
  );
}

/** Code-unit order: the same everywhere and cheaper than localeCompare, which sorting calls ~n·log n times. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
 * Summary level: priority ≥ ROLE_LOAD_DIGEST_MIN_PRIORITY, or linked (a memory below the
 * threshold that has links may still load its summary), or warm (MEM-6 "passes the digest
 * priority filter"), or a durable type (MEM-5: the summary block treats these as durable and
 * never filters them by priority, so emotional memories are not swallowed by preferences).
 */
export function isDigestCandidate(memory: Memory, options: Pick<SelectionOptions, 'digestMinPriority'>): boolean {
  return (
    memory.priority >= options.digestMinPriority || memory.links.length > 0 || hasWarmth(memory) || DURABLE_TYPES.has(memory.memory_type)
  );
}

function isCandidate(memory: Memory, options: Omit<SelectionOptions, 'now'>): 'full' | 'digest' | undefined {
  if (memory.category === 'inbox') return undefined;
  // Issue 12: a preference the user replaced is history, never loaded as current.
  if (isSuperseded(memory)) return undefined;
  if (isFullTextCandidate(memory, options)) return 'full';
  // Issue 16: a pinned memory is loaded whatever its priority (as a summary when not full text).
  if (isPinned(memory)) return 'digest';
  return isDigestCandidate(memory, options) ? 'digest' : undefined;
}

/** Candidates in value order, expired ones still in: that depends on the moment, the rest does not. */
function sortedCandidates<M extends Memory>(memories: readonly M[], options: Omit<SelectionOptions, 'now'>): LongTermSelection<M> {
  const full: M[] = [];
  const digest: M[] = [];
  for (const memory of memories) {
    const kind = isCandidate(memory, options);
    if (kind === 'full') full.push(memory);
    else if (kind === 'digest') digest.push(memory);
  }
  return { full: byValue(full), digest: byValue(digest) };
}

/** Two lists already in value order, as one. */
function merge<M extends Memory>(a: readonly M[], b: readonly M[]): M[] {
  if (b.length === 0) return [...a];
  const out: M[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(compareMemoryValue(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

interface SortedList {
  list: readonly Memory[];
  sorted: LongTermSelection<Memory>;
}

/**
 * A new frozen list of a role shares almost every memory object with the previous one (the cache
 * re-parses changed files only): a turn's summary or a compaction's adds one, a recall rewrites
 * a few. Sorting 10,000 memories anew was the largest part of a SessionStart after such a change
 * (X-PERF); instead the previous order is kept minus what left, and what arrived is sorted on its
 * own and merged in. The order is total (compareKeyed), so this is the same list a full sort gives.
 */
function sortedFromPrevious<M extends Memory>(
  previous: SortedList,
  memories: readonly M[],
  options: Omit<SelectionOptions, 'now'>,
): LongTermSelection<M> {
  const before = new Set<Memory>(previous.list);
  const now = new Set<Memory>(memories);
  const arrived = sortedCandidates(
    memories.filter((memory) => !before.has(memory)),
    options,
  );
  const stayed = (memory: Memory) => now.has(memory);
  return {
    full: merge(previous.sorted.full.filter(stayed) as M[], arrived.full),
    digest: merge(previous.sorted.digest.filter(stayed) as M[], arrived.digest),
  };
}

/**
 * The daemon hands the same frozen list of memories to every event until a file changes
 * (memory-cache.ts); its sorted candidates are kept with it, so a SessionStart only filters out
 * what has expired since (X-PERF). A list that is not frozen may still change and is sorted anew.
 */
const sortedByList = new WeakMap<readonly Memory[], Map<string, LongTermSelection<Memory>>>();
/** Per role and thresholds, the last frozen list sorted: where the next one starts from. */
const lastSorted = new Map<string, SortedList>();

function sortedOnce<M extends Memory>(memories: readonly M[], options: Omit<SelectionOptions, 'now'>): LongTermSelection<M> {
  if (!Object.isFrozen(memories)) return sortedCandidates(memories, options);
  const key = `${options.fullMinPriority}:${options.digestMinPriority}`;
  let byOptions = sortedByList.get(memories);
  if (!byOptions) sortedByList.set(memories, (byOptions = new Map()));
  const known = byOptions.get(key) as LongTermSelection<M> | undefined;
  if (known) return known;
  const lineage = options.roleId === undefined ? undefined : `${options.roleId}|${key}`;
  const previous = lineage === undefined ? undefined : lastSorted.get(lineage);
  const sorted = previous ? sortedFromPrevious(previous, memories, options) : sortedCandidates(memories, options);
  byOptions.set(key, sorted);
  if (lineage !== undefined) lastSorted.set(lineage, { list: memories, sorted });
  return sorted;
}

/**
 * When a load must stop injecting a memory (ms; Infinity for none or a condition text), per object:
 * its `expires` date, or at once for a session grant (MEM-8, grant-scope.ts).
 */
const expiryTimes = new WeakMap<Memory, number>();

function expiresAt(memory: Memory): number {
  let time = expiryTimes.get(memory);
  if (time === undefined) {
    time = loadExpiryTime(memory)?.getTime() ?? Infinity;
    expiryTimes.set(memory, time);
  }
  return time;
}

/**
 * The candidates live at `options.now`, and `until`: the first later moment one of them expires
 * (Infinity when none will), up to which this selection stays the same.
 */
export function selectLongTermMemories<M extends Memory>(
  memories: readonly M[],
  options: SelectionOptions,
): LongTermSelection<M> & { until: number } {
  const sorted = sortedOnce(memories, options);
  const time = options.now.getTime();
  let until = Infinity;
  const live = (memory: M) => {
    const expires = expiresAt(memory);
    if (time >= expires) return false; // MEM-8, as isInjectable() decides it
    if (expires < until) until = expires;
    return true;
  };
  return { full: sorted.full.filter(live), digest: sorted.digest.filter(live), until };
}

/** Chosen memories in the order they are shown: by category (DIGEST_CATEGORY_ORDER), value within. */
export function inDisplayOrder<M extends Memory>(memories: readonly M[]): M[] {
  const rank = (memory: Memory) => DIGEST_CATEGORY_ORDER.indexOf(memory.category as ConsolidatedCategory);
  return memories
    .map((memory) => ({ memory, key: valueKey(memory), rank: rank(memory) }))
    .sort((a, b) => a.rank - b.rank || compareKeyed(a, b))
    .map((keyed) => keyed.memory);
}
