import { say, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * One block of SessionStart text and how many of its items were shown and left out.
 * `omitted` counts items that exist but did not fit (budget or count); a block turned off by a
 * budget of 0 is empty with nothing counted, since nothing was squeezed out (CTX-2).
 */
export interface ContextBlock {
  text: string;
  shown: number;
  omitted: number;
}

export const EMPTY_BLOCK: ContextBlock = Object.freeze({ text: '', shown: 0, omitted: 0 });

/** A block that is only text (notes, pointers): one item, never cut. */
export function textBlock(text: string): ContextBlock {
  return text ? { text, shown: 1, omitted: 0 } : EMPTY_BLOCK;
}

/**
 * "N more not shown", said honestly at the end of a block (CTX-5: over budget, an item is
 * skipped whole and the skipped ones are counted at the end).
 */
export function moreNotShown(language: ContextLanguage, count: number, zhNoun: string, enNoun: string): string {
  return say(language, `（另有 ${count} ${zhNoun}因篇幅未列出）`, `(${count} more ${enNoun} not shown)`);
}

export interface WholeItemChoice {
  /** Indexes of the items that fit, in the order they were given. */
  chosen: number[];
  omitted: number;
}

/**
 * Which whole items fit in `room` characters when joined by `separatorLength` characters, taken
 * in the given (value) order. CTX-5: the old loader `slice()`d the joined text and cut
 * the oldest item to half a sentence, which "reads like corrupted data" — so an item fits whole or
 * is skipped whole. `contiguous` stops at the first item that does not fit (dialog: a gap in the
 * middle of a conversation reads worse than a shorter one).
 */
export function chooseWholeItems(lengths: readonly number[], room: number, separatorLength: number, contiguous = false): WholeItemChoice {
  const chosen: number[] = [];
  let used = 0;
  for (let i = 0; i < lengths.length; i++) {
    const cost = lengths[i]! + (chosen.length ? separatorLength : 0);
    if (used + cost <= room) {
      chosen.push(i);
      used += cost;
    } else if (contiguous) break;
  }
  return { chosen, omitted: lengths.length - chosen.length };
}

export interface FitOptions {
  heading: string;
  /** Items in value order; each is shown whole or not at all. */
  items: readonly string[];
  limit: number;
  note: (omitted: number) => string;
  separator?: string;
  contiguous?: boolean;
  /** Items already left out before these (e.g. beyond a count): the note is then always needed. */
  alreadyOmitted?: number;
}

/**
 * The common shape of a budgeted block: heading, the items that fit, and the honest note.
 * The note's room is reserved only when something is left out, sized for the largest count it
 * could say, so the block never exceeds `limit`. Returns the chosen indexes so a caller can show
 * them in another order than they were chosen in.
 */
export function fitWholeItems(options: FitOptions): WholeItemChoice {
  const separator = options.separator ?? '\n';
  const lengths = options.items.map((item) => item.length);
  const room = options.limit - options.heading.length - separator.length;
  const before = options.alreadyOmitted ?? 0;
  const all = chooseWholeItems(lengths, room, separator.length, options.contiguous);
  if (all.omitted === 0 && before === 0) return all;
  const noteRoom = separator.length + options.note(options.items.length + before).length;
  return chooseWholeItems(lengths, room - noteRoom, separator.length, options.contiguous);
}

/**
 * Join heading, items and the note into a block. Nothing at all when there is nothing, or when
 * not even the heading and the note fit the limit (then every item counts as left out).
 */
export function renderBlock(
  heading: string,
  shownItems: readonly string[],
  omitted: number,
  note: (omitted: number) => string,
  separator = '\n',
  limit = Infinity,
): ContextBlock {
  if (shownItems.length === 0 && omitted === 0) return EMPTY_BLOCK;
  const pieces = [heading, ...shownItems];
  if (omitted > 0) pieces.push(note(omitted));
  const text = pieces.join(separator);
  if (text.length > limit) return { text: '', shown: 0, omitted: shownItems.length + omitted };
  return { text, shown: shownItems.length, omitted };
}

const SENTENCE_END = /[。！？!?；;…]|[.](?=\s|$)|\n/g;

/**
 * The longest start of `text` that ends at a sentence end and fits in `max` characters, or '' if
 * no sentence ends early enough. Used only where a rule keeps an item that is too long by itself
 * (the newest inbox item, CTX-5); everywhere else items are whole.
 */
export function sentencesWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const stop = match.index + match[0].length;
    if (stop > max) break;
    end = stop;
  }
  return text.slice(0, end).trimEnd();
}

/**
 * The start of `text` within `max` characters, for the one item allowed to be shortened (the
 * newest inbox item, CTX-5): whole sentences when any fit, else whole clauses or words, and a
 * hard cut only when a single run of text is longer than the room itself.
 */
export function startWithin(text: string, max: number): string {
  if (max <= 0) return '';
  if (text.length <= max) return text;
  const sentences = sentencesWithin(text, max);
  if (sentences) return sentences;
  const head = text.slice(0, max);
  const clause = Math.max(...['，', ',', '、', ' ', '：', ':'].map((mark) => head.lastIndexOf(mark)));
  return clause > 0 ? head.slice(0, clause).trimEnd() : head;
}
