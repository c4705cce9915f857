import { CATEGORY_LABELS, MEMORY_TYPE_LABELS, type Memory } from '../../../../common/memory.js';
import { formatLocalDate } from '../../platform/config/clock.js';
import { expiryTime } from '../../store/memory/memory-expiry.js';
import { conditionWithGrantDay } from '../../store/memory/grant-scope.js';
import { chooseWholeItems, EMPTY_BLOCK, moreNotShown, type ContextBlock } from './context-block.js';
import { joinWords, say, type ContextLanguage } from '../../platform/text/context-language.js';
import { inertMemory } from './inert-input.js';
import { clarityWindow, splitGist, type Clarity } from '../../store/memory/memory-clarity.js';
import { DIGEST_CATEGORY_ORDER, selectLongTermMemories } from './memory-selection.js';
import { isPinned } from '../../store/memory/pinned.js';

/**
 * The long-term MEMORY block (CTX-4, ROLE_LOAD_LIMIT): full text first, then summaries, each
 * item whole (CTX-5), every memory told only as clearly as it is remembered (PM-2).
 */
export interface LongTermBlockOptions {
  roleId: string;
  language: ContextLanguage;
  now: Date;
  /** ROLE_LOAD_LIMIT; 0 turns the block off. */
  limit: number;
  fullMinPriority: number;
  digestMinPriority: number;
  /** A tighter cap on the summary part alone, used when the whole load must shrink (CTX-3). */
  digestLimit?: number;
}

function bracket(language: ContextLanguage, text: string): string {
  return say(language, `〔${text}〕`, `[${text}] `);
}

function label(language: ContextLanguage, labels: { zh: string; en: string }): string {
  return language === 'zh-TW' ? labels.zh : labels.en;
}

/**
 * MEM-8: a date that has not passed yet is shown as "until"; a condition text ("PR 合併後失效")
 * is shown as its scope with the day it was granted, for the role to judge (temporary
 * permissions expire). A session grant never gets here: loads leave it out (grant-scope.ts).
 */
function scopeNote(memory: Memory, language: ContextLanguage): string {
  const expires = memory.expires.trim();
  if (!expires) return '';
  const until = expiryTime(expires);
  if (until)
    return say(
      language,
      `有效至 ${formatLocalDate(new Date(until.getTime() - 1))}`,
      `valid until ${formatLocalDate(new Date(until.getTime() - 1))}`,
    );
  // A condition carries the day it was granted (MEM-8): "this PR" means the PR of that day.
  return say(language, `有效範圍：${conditionWithGrantDay(memory, 'zh')}`, `scope: ${conditionWithGrantDay(memory, 'en')}`);
}

/** PM-2 fuzzy: only that something happened and its topics, as a question to confirm. */
function fuzzyLine(memory: Memory, language: ContextLanguage): string {
  const topics = memory.tags.length ? joinWords(language, memory.tags) : label(language, CATEGORY_LABELS[memory.category]);
  return say(
    language,
    `- 好像有過一件和「${topics}」有關的事？（模糊，只能問不能斷言）`,
    `- Did something happen about "${topics}"? (fuzzy: ask, never assert)`,
  );
}

function tagsText(memory: Memory, language: ContextLanguage): string {
  return memory.tags.length ? say(language, `標籤：${joinWords(language, memory.tags)}`, `tags: ${joinWords(language, memory.tags)}`) : '';
}

/**
 * An item's text depends on the memory, the language and how clearly it is remembered — not on
 * anything else of the moment — so it is kept per memory object: the daemon keeps memories
 * between events (memory-cache.ts) and a SessionStart formats thousands of them (X-PERF).
 */
const itemTexts = new WeakMap<Memory, Map<string, string>>();

function cachedText(memory: Memory, key: string, make: () => string): string {
  let texts = itemTexts.get(memory);
  if (!texts) {
    texts = new Map();
    itemTexts.set(memory, texts);
  }
  let text = texts.get(key);
  if (text === undefined) {
    text = make();
    texts.set(key, text);
  }
  return text;
}

function fullItem(memory: Memory, language: ContextLanguage, clarity: Clarity): string {
  return cachedText(memory, `full:${language}:${clarity}`, () => fullItemText(memory, language, clarity));
}

function fullItemText(memory: Memory, language: ContextLanguage, clarity: Clarity): string {
  if (clarity === 'fuzzy') return fuzzyLine(memory, language);
  const kinds = [
    label(language, CATEGORY_LABELS[memory.category]),
    label(language, MEMORY_TYPE_LABELS[memory.memory_type]),
    say(language, `優先度 ${memory.priority}`, `priority ${memory.priority}`),
  ];
  if (clarity === 'faded') kinds.push(say(language, '已淡去：只記得主旨', 'faded: gist only'));
  const sep = say(language, '・', ' · ');
  const meta = [tagsText(memory, language), scopeNote(memory, language)].filter(Boolean).join(say(language, '｜', ' | '));
  const { gist } = splitGist(memory.body);
  // Faded: the gist may be told, the detail may not be filled in (PM-2: details must not be made up).
  const body = clarity === 'clear' ? memory.body.trim() : gist !== memory.summary ? gist : '';
  return [`### ${bracket(language, kinds.join(sep))}${memory.summary}`, meta, body].filter(Boolean).join('\n');
}

function digestItem(memory: Memory, language: ContextLanguage, clarity: Clarity): string {
  const fuzzy = clarity === 'fuzzy';
  return cachedText(memory, `digest:${language}:${fuzzy}`, () => digestItemText(memory, language, fuzzy));
}

function digestItemText(memory: Memory, language: ContextLanguage, fuzzy: boolean): string {
  if (fuzzy) return fuzzyLine(memory, language);
  const extras = [tagsText(memory, language), scopeNote(memory, language)].filter(Boolean);
  const tail = extras.length ? say(language, `（${extras.join('；')}）`, ` (${extras.join('; ')})`) : '';
  return `- ${bracket(language, label(language, CATEGORY_LABELS[memory.category]))}${memory.summary}${tail}`;
}

function heading(options: Pick<LongTermBlockOptions, 'language' | 'roleId'>): string {
  return say(
    options.language,
    `## 長期記憶\n重要與興趣列出全文，其餘只列總結與標籤；細節用 \`kioku memory recall --role ${options.roleId} --query "<關鍵詞>"\` 查。標示「已淡去」的只剩主旨，「模糊」的只記得主題。`,
    `## Long-term memory\nImportant and interest memories in full, the rest as summary and tags; details via \`kioku memory recall --role ${options.roleId} --query "<keywords>"\`. "Faded" ones keep only their gist; "fuzzy" ones only their topics.`,
  );
}

const GAP = 2; // each item is followed by at most "\n\n"

/**
 * What fitting and project narrowing read of an item's memory: its folder (display order) and its
 * project fields (session-project.ts). A load prepared on disk carries only these (prepared-load-file.ts).
 */
export type PreparedItemMemory = Pick<Memory, 'category' | 'extra'>;

/** Selection and item texts, computed once; fitting them to a budget is cheap and repeatable. */
/**
 * An item as fitting takes it. `pinned` is read once when the item is made: fitting sums the
 * pinned summaries' room over the whole digest list, and the daemon fits a fresh list after
 * every change — reading 10,000 front matters for a handful of pins was most of that fit.
 */
export interface PreparedItem {
  memory: PreparedItemMemory;
  text: string;
  pinned: boolean;
}

export interface PreparedLongTermMemory {
  heading: string;
  /** Each list in value order (memory-selection.ts), the order fitting takes them in. */
  full: PreparedItem[];
  digest: PreparedItem[];
  language: ContextLanguage;
}

export interface LongTermBlock extends ContextBlock {
  /** Room the summary part takes, in the units a `digestLimit` caps (each item plus a gap). */
  digestLength: number;
}

type PrepareOptions = Omit<LongTermBlockOptions, 'limit' | 'digestLimit'>;

interface PreparedWindow {
  key: string;
  prepared: PreparedLongTermMemory;
  /** The moment it was prepared for, and the first moment it may be wrong (ms). */
  from: number;
  until: number;
}

/** Kept with the daemon's frozen memory list (memory-cache.ts), per options. */
const preparedByList = new WeakMap<readonly Memory[], PreparedWindow>();

/**
 * Selection and texts depend on the moment only through expiry (MEM-8) and clarity (PM-2), and
 * both change at moments known in advance: a date `expires` runs out, a memory crosses from clear
 * to faded or from faded to fuzzy (memory-clarity.ts). So what was prepared at one moment is the
 * very answer for every later moment before the earliest such change, and the daemon reuses it
 * until then or until a memory file changes (X-PERF: otherwise every SessionStart re-judged and
 * re-formatted thousands of memories). The hook's fallback computes it afresh: the same text.
 */
export function prepareLongTermMemory(memories: readonly Memory[], options: PrepareOptions): PreparedLongTermMemory {
  return prepareLongTermWindow(memories, options).prepared;
}

/** The same, with the first moment it may be wrong (ms, Infinity for never): what a prepared load on disk is valid until. */
export function prepareLongTermWindow(
  memories: readonly Memory[],
  options: PrepareOptions,
): { prepared: PreparedLongTermMemory; until: number } {
  if (!Object.isFrozen(memories)) return prepareAt(memories, options);
  const key = `${options.roleId}|${options.language}|${options.fullMinPriority}|${options.digestMinPriority}`;
  const time = options.now.getTime();
  const known = preparedByList.get(memories);
  if (known && known.key === key && known.from <= time && time < known.until) return known;
  const window = prepareAt(memories, options);
  preparedByList.set(memories, { key, prepared: window.prepared, from: time, until: window.until });
  return window;
}

/**
 * Selection reads no text a load injects (summary, body, tags, scope), so only the memories
 * selected are made inert, for their item texts: the same text as making all 10,000 inert first,
 * which the hook's fallback paid for on every SessionStart (issue 14's regression).
 */
function prepareAt(memories: readonly Memory[], options: PrepareOptions): { prepared: PreparedLongTermMemory; until: number } {
  const { full, digest, until: expiresNext } = selectLongTermMemories(memories, options);
  let until = expiresNext;
  const item = (memory: Memory, format: (memory: Memory, clarity: Clarity) => string) => {
    const window = clarityWindow(memory, options.now);
    if (window.until < until) until = window.until;
    return { memory, text: format(inertMemory(memory), window.clarity), pinned: isPinned(memory) };
  };
  const prepared = {
    heading: heading(options),
    full: full.map((memory) => item(memory, (m, clarity) => fullItem(m, options.language, clarity))),
    digest: digest.map((memory) => item(memory, (m, clarity) => digestItem(m, options.language, clarity))),
    language: options.language,
  };
  return { prepared, until };
}

const displayRank = (category: Memory['category']) => DIGEST_CATEGORY_ORDER.indexOf(category as (typeof DIGEST_CATEGORY_ORDER)[number]);

const NOTHING: LongTermBlock = { ...EMPTY_BLOCK, digestLength: 0 };

/** Fitted blocks per prepared load and budget: shrinking a load tries the same budgets again. */
const fittedByPrepared = new WeakMap<PreparedLongTermMemory, Map<string, LongTermBlock>>();

export function fitLongTermMemory(prepared: PreparedLongTermMemory, limit: number, digestLimit?: number): LongTermBlock {
  let fitted = fittedByPrepared.get(prepared);
  if (!fitted) fittedByPrepared.set(prepared, (fitted = new Map()));
  const key = `${limit}:${digestLimit ?? ''}`;
  let block = fitted.get(key);
  if (!block) fitted.set(key, (block = fitAnew(prepared, limit, digestLimit)));
  return block;
}

/**
 * Tell what `fitLongTermMemory(prepared, limit, digestLimit)` gives, when it was fitted ahead: a
 * prepared load on disk keeps the fits of its usual budgets (prepared-load-fits.ts), so a hook
 * without the daemon need not read 7,600 items to fit the few dozen a budget of 4,000 shows.
 */
export function rememberFit(prepared: PreparedLongTermMemory, limit: number, digestLimit: number | undefined, block: LongTermBlock): void {
  let fitted = fittedByPrepared.get(prepared);
  if (!fitted) fittedByPrepared.set(prepared, (fitted = new Map()));
  fitted.set(`${limit}:${digestLimit ?? ''}`, block);
}

/** What every fit of one prepared load reads: each item's room, and what the pinned summaries take. */
export interface ItemRooms {
  full: number[];
  digest: number[];
  pinnedDigest: number;
}

const roomsByPrepared = new WeakMap<PreparedLongTermMemory, ItemRooms>();

/** The room an item takes in the block: its text and the gap after it. */
export const itemRoom = (item: PreparedItem) => item.text.length + GAP;

/**
 * Tell the rooms of a prepared load's items (`itemRoom` of each) when the caller worked them out
 * in a pass it made anyway: reading a load back from disk makes every item (prepared-load-file.ts).
 */
export function rememberItemRooms(prepared: PreparedLongTermMemory, rooms: ItemRooms): void {
  roomsByPrepared.set(prepared, rooms);
}

/**
 * The rooms of `narrowed`, which is `prepared` without the items at these positions (a project's
 * share: session-project.ts), from those of `prepared` when they are known: every session outside
 * a project with memories of its own has such a narrowed load.
 */
export function rememberNarrowedRooms(
  prepared: object,
  narrowed: object,
  hiddenFull: ReadonlySet<number>,
  hiddenDigest: ReadonlySet<number>,
): void {
  const rooms = roomsByPrepared.get(prepared as PreparedLongTermMemory);
  if (!rooms) return;
  const digest = (prepared as PreparedLongTermMemory).digest;
  let pinnedDigest = rooms.pinnedDigest;
  for (const i of hiddenDigest) if (digest[i]!.pinned) pinnedDigest -= rooms.digest[i]!;
  roomsByPrepared.set(narrowed as PreparedLongTermMemory, {
    full: rooms.full.filter((_, i) => !hiddenFull.has(i)),
    digest: rooms.digest.filter((_, i) => !hiddenDigest.has(i)),
    pinnedDigest,
  });
}

/** Worked out once per prepared load: shrinking a load fits it at several budgets, each over 7,000 items. */
function itemRooms(prepared: PreparedLongTermMemory): ItemRooms {
  let rooms = roomsByPrepared.get(prepared);
  if (!rooms) {
    rooms = {
      full: prepared.full.map(itemRoom),
      digest: prepared.digest.map(itemRoom),
      // Issue 16: pinned summaries lead the digest list; their room is kept from the full texts and
      // from a shrinking digestLimit, so a budget that can hold them always does.
      pinnedDigest: prepared.digest.reduce((sum, item) => sum + (item.pinned ? itemRoom(item) : 0), 0),
    };
    roomsByPrepared.set(prepared, rooms);
  }
  return rooms;
}

function fitAnew(prepared: PreparedLongTermMemory, limit: number, digestLimit?: number): LongTermBlock {
  const total = prepared.full.length + prepared.digest.length;
  if (limit <= 0 || total === 0) return NOTHING;
  const head = prepared.heading;
  const note = (n: number) => moreNotShown(prepared.language, n, '則長期記憶', 'long-term memories');
  const rooms = itemRooms(prepared);
  const pinnedDigest = rooms.pinnedDigest;
  const choose = (room: number) => {
    const fullChoice = chooseWholeItems(rooms.full, Math.max(0, room - pinnedDigest), 0);
    const used = fullChoice.chosen.reduce((sum, i) => sum + rooms.full[i]!, 0);
    const digestRoom = Math.min(room - used, Math.max(digestLimit ?? Infinity, pinnedDigest));
    const digestChoice = chooseWholeItems(rooms.digest, digestRoom, 0);
    return { fullChoice, digestChoice, omitted: fullChoice.omitted + digestChoice.omitted };
  };
  const room = limit - head.length;
  let choice = choose(room);
  if (choice.omitted > 0) choice = choose(room - GAP - note(total).length);

  // inDisplayOrder (by folder, then value): the lists are in value order, so within a folder
  // the list's own order is the value order, and only the folder rank needs sorting.
  const byDisplay = (items: PreparedLongTermMemory['full'], chosen: number[]) =>
    chosen
      .map((i) => ({ text: items[i]!.text, rank: displayRank(items[i]!.memory.category), i }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((item) => item.text);
  const shownFull = byDisplay(prepared.full, choice.fullChoice.chosen);
  const shownDigest = byDisplay(prepared.digest, choice.digestChoice.chosen);
  const shown = shownFull.length + shownDigest.length;
  if (shown === 0 && head.length + GAP + note(total).length > limit) return { text: '', shown: 0, omitted: total, digestLength: 0 };
  const digestText = shownDigest.join('\n');
  const sections = [head];
  if (shownFull.length) sections.push(shownFull.join('\n\n'));
  if (digestText) sections.push(digestText);
  if (choice.omitted > 0) sections.push(note(choice.omitted));
  const digestLength = shownDigest.reduce((sum, text) => sum + text.length + GAP, 0);
  return { text: sections.join('\n\n'), shown, omitted: choice.omitted, digestLength };
}

export function longTermMemoryBlock(memories: readonly Memory[], options: LongTermBlockOptions): LongTermBlock {
  if (options.limit <= 0) return NOTHING;
  return fitLongTermMemory(prepareLongTermMemory(memories, options), options.limit, options.digestLimit);
}
