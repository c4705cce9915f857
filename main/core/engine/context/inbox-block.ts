import type { Memory } from '../../../../common/memory.js';
import { formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import { loadExpiryTime } from '../../store/memory/memory-expiry.js';
import { EMPTY_BLOCK, fitWholeItems, moreNotShown, renderBlock, startWithin, type ContextBlock } from './context-block.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';
import { memoByList } from './list-memo.js';

/**
 * INBOX: recent working memory not yet consolidated, in full text (CTX-5), with its own
 * budgets, newest first, whole items only; the newest item is always kept.
 * Design notes: docs/design-notes.md, "main/core/engine/context/inbox-block.ts".
 */
export interface InboxBlockOptions {
  language: ContextLanguage;
  now: Date;
  /** ROLE_LOAD_INBOX_COUNT; 0 turns the block off. */
  count: number;
  /** ROLE_LOAD_INBOX_LIMIT; 0 turns the block off. */
  limit: number;
  /**
   * Memories older than all of `memories`, known only by count (a prepared load keeps only the
   * newest whole: prepared-inbox.ts): how many are not expired. Its caller makes sure that
   * `memories` then holds `count` shown ones, so that the older are only ever counted.
   */
  olderInjectable?: number;
}

/**
 * The older part of an inbox of which only the newest memories are at hand: how many of them a
 * session in this project is given (`visible`), and how many of those are not expired now.
 */
export interface OlderInboxCount {
  visible: number;
  injectable: number;
}

type InboxMemory = Memory & { path?: string };

/** Kept per object, like memory-selection.ts does: a sort compares each memory many times. */
const createdTimes = new WeakMap<Memory, number>();

function timeOf(memory: Memory): number {
  let time = createdTimes.get(memory);
  if (time === undefined) {
    time = parseLooseDate(memory.created)?.getTime() ?? parseLooseDate(memory.updated)?.getTime() ?? 0;
    createdTimes.set(memory, time);
  }
  return time;
}

/**
 * `localeCompare` without arguments is this collator's `compare` (ECMA-402), but builds its
 * comparison state on every call: 1,400 inbox items created on the same few days cost the
 * hook's fallback a tenth of `node -e 0` in ties alone. Made once, when first needed.
 */
let defaultCollator: Intl.Collator | undefined;
const collator = () => (defaultCollator ??= new Intl.Collator());

/**
 * Ids made only of digits, lowercase ASCII letters and '-' (every id Kioku writes) are ordered by
 * every collator as by their code units — '-' (punctuation) before digits before letters, no
 * character ignorable, numeric off; inbox-block.test.ts checks it against several locales — so
 * they are compared without one: creating the collator loads ICU's collation data, 17 ms of a
 * SessionStart without the daemon (a third of `node -e 0`). Any other id goes to the collator.
 */
const PLAIN_ID = /^[0-9a-z-]*$/;

export function compareInboxIds(a: string, b: string): number {
  return compareIds(a, PLAIN_ID.test(a), b, PLAIN_ID.test(b));
}

function compareIds(a: string, aPlain: boolean, b: string, bPlain: boolean): number {
  if (aPlain && bPlain) return a < b ? -1 : a > b ? 1 : 0;
  return collator().compare(a, b);
}

/** A memory with what the sort compares it by, worked out once instead of in each comparison. */
interface SortKey<M> {
  memory: M;
  time: number;
  plainId: boolean;
}

/** The inbox in order, with when each item stops being injected, and the last moment asked about. */
interface SortedInbox<M> {
  ordered: readonly M[];
  /** `loadExpiryTime` of each, in ms (Infinity: never). */
  expiresAt: readonly number[];
  last?: { at: number; injectable: readonly M[] };
}

const SORTED = 'inbox-newest-first';

/** The inbox memories of a list, newest first, expired or not (the order does not depend on the moment). */
export function inboxInOrder<M extends Memory>(memories: readonly M[]): readonly M[] {
  // 1,400 items take about 14,000 comparisons: looking each one's time up and testing its id
  // there was most of the hook's sort without the daemon.
  const keys: SortKey<M>[] = [];
  for (const memory of memories)
    if (memory.category === 'inbox') keys.push({ memory, time: timeOf(memory), plainId: PLAIN_ID.test(memory.id) });
  keys.sort((a, b) => b.time - a.time || compareIds(b.memory.id, b.plainId, a.memory.id, a.plainId));
  return keys.map((key) => key.memory);
}

function sortedInbox<M extends Memory>(ordered: readonly M[]): SortedInbox<M> {
  // Parsed once: a load tries the block at several budgets, each asking of every item.
  return { ordered, expiresAt: ordered.map((memory) => loadExpiryTime(memory)?.getTime() ?? Infinity) };
}

/**
 * Tell the block that this frozen list of inbox memories is already in its order
 * (`inboxInOrder`): a prepared load on disk stores the inbox so (prepared-load-file.ts), and
 * sorting it again was a twentieth of a SessionStart without the daemon. Expiry is still read
 * from each memory: only the order is taken on trust, and a wrong one changes no more than it.
 */
export function rememberInboxOrder<M extends Memory>(ordered: readonly M[]): void {
  if (!Object.isFrozen(ordered)) return;
  inOrder.add(ordered);
  memoByList(ordered, SORTED, () => sortedInbox(ordered));
}

/** Frozen lists known to be in the block's order (rememberInboxOrder). */
const inOrder = new WeakSet<readonly Memory[]>();

/**
 * `derived` is `source` narrowed or mapped one to one, in the same order (a project's share, the
 * inert copies: assemble-session-context.ts); when `source` is known to be in the block's order,
 * so is it. Neither step changes what the order is made of (created, updated, id).
 */
export function keepInboxOrder<M extends Memory>(source: readonly M[], derived: readonly M[]): void {
  if (derived !== source && inOrder.has(source)) rememberInboxOrder(derived);
}

/** Unexpired inbox memories, newest first (the order the block shows and keeps them in). */
export function inboxNewestFirst<M extends Memory>(memories: readonly M[], now: Date): readonly M[] {
  // The order does not depend on the moment, only what has expired does (list-memo.ts).
  const sorted = memoByList(memories, SORTED, (): SortedInbox<M> => sortedInbox(inboxInOrder(memories)));
  const at = now.getTime();
  if (sorted.last?.at !== at) {
    // MEM-8, as isInjectable decides it: no expired date, no session grant.
    const injectable = sorted.ordered.filter((_, i) => at < sorted.expiresAt[i]!);
    sorted.last = { at, injectable };
  }
  return sorted.last.injectable;
}

function when(memory: Memory): string {
  const time = parseLooseDate(memory.created) ?? parseLooseDate(memory.updated);
  return time ? `${formatLocalIso(time).slice(0, 16).replace('T', ' ')} ` : '';
}

function titleOf(memory: Memory): string {
  return `### ${when(memory)}${memory.summary}`;
}

function item(memory: Memory): string {
  return memory.body.trim() ? `${titleOf(memory)}\n${memory.body.trim()}` : titleOf(memory);
}

/** The newest item shortened to `room` characters: its own body cut at a sentence, never others. */
function shortenedNewest(memory: InboxMemory, room: number, language: ContextLanguage): string {
  const where = memory.path ?? '';
  const marker = where
    ? say(language, `…（內文較長，其餘未列出；全文在 ${where}）`, `… (longer than the room here; the full text is in ${where})`)
    : say(language, '…（內文較長，其餘未列出）', '… (longer than the room here; the rest is not shown)');
  const title = startWithin(titleOf(memory), Math.max(0, room - marker.length - 1));
  // Too little room for even a title: showing a torn marker would be worse than the honest count.
  if (title.length < 4) return '';
  const bodyRoom = room - title.length - 1 - marker.length;
  const body = startWithin(memory.body.trim(), bodyRoom);
  return body ? `${title}\n${body}${marker}` : `${title}${marker}`;
}

export function inboxBlock(memories: readonly InboxMemory[], options: InboxBlockOptions): ContextBlock {
  return inboxBlockAt(memories, options)(options.limit);
}

/**
 * The inbox block at any character limit, for the same memories and options: what does not
 * depend on the limit (the order, each item's text) is made once. The load's budget search asks
 * for a dozen limits (shrink-to-fit.ts), and formatting every item again at each was 0.4 ms of a
 * daemon's SessionStart (sampled profile, session 20).
 */
export function inboxBlockAt(memories: readonly InboxMemory[], options: Omit<InboxBlockOptions, 'limit'>): (limit: number) => ContextBlock {
  if (options.count <= 0) return () => EMPTY_BLOCK;
  const all = inboxNewestFirst(memories, options.now);
  if (all.length === 0) return () => EMPTY_BLOCK;
  const total = all.length + (options.olderInjectable ?? 0);
  const candidates = all.slice(0, options.count);
  const beyondCount = total - candidates.length;
  const heading = say(
    options.language,
    '## 近期工作記憶（尚未整理的 inbox，最新在前）\n上一段做了什麼、進行到哪，都在這裡。',
    '## Recent working memory (inbox, not yet consolidated; newest first)\nWhat was done lately and how far it got.',
  );
  const note = (n: number) => moreNotShown(options.language, n, '則工作記憶', 'inbox items');
  const items = candidates.map(item);
  return (limit) => {
    if (limit <= 0) return EMPTY_BLOCK;
    const fit = fitWholeItems({ heading, items, limit, note, separator: '\n\n', alreadyOmitted: beyondCount });
    if (fit.chosen[0] === 0) {
      return renderBlock(
        heading,
        fit.chosen.map((i) => items[i]!),
        fit.omitted + beyondCount,
        note,
        '\n\n',
        limit,
      );
    }
    // The newest does not fit even alone: it stays, shortened to the whole room; the rest wait.
    const omitted = total - 1;
    const noteRoom = omitted > 0 ? 2 + note(omitted).length : 0;
    const room = limit - heading.length - 2 - noteRoom;
    const newest = room > 0 ? shortenedNewest(candidates[0]!, room, options.language) : '';
    if (!newest) return { text: '', shown: 0, omitted: total };
    return renderBlock(heading, [newest], omitted, note, '\n\n', limit);
  };
}
