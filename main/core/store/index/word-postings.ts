import type Database from 'better-sqlite3';
import type { WordMatches } from './instance-list.js';
import { keptUntilChange } from './kept-until-change.js';
import { isPostingsWord } from './postings-words.js';
import { SLOT_BYTES } from './rank-pages.js';
import { slotsFromPages } from './rank-slots.js';
import { statement } from './statement-cache.js';

/**
 * A word's matches from the word postings (issue 17): each postings word's memories and weighted
 * frequencies as two blobs, read as typed arrays without parsing. memories_vocab gives the same
 * numbers by walking every instance of the word in FTS5's doclist: 3–4 ms for a common word at
 * 100,000 memories, against about 0.2 ms here. A third blob holds each of those memories' rank
 * slots (rank-pages.ts) as they were at the build: ranking a common word otherwise read every
 * rank page — the hundred pages of 100,000 memories, about 0.9 ms of a CLI recall — for the few
 * thousand slots it needed.
 *
 * The blobs are built in bulk from memories_vocab (word-postings-upkeep.ts); every memory written
 * or deleted since is in postings_changed, and its current words in postings_delta. A word's
 * matches are its blob's, less the changed memories, plus its delta rows: exactly what
 * memories_vocab holds now (word-postings.test.ts compares the two after random edits). A memory
 * whose slot changed (its priority, type, role or expiry) counts as changed too
 * (memory-rows.ts), and the changed memories' slots are read from the rank pages, so every slot
 * given is the pages' own.
 *
 * Undefined when the postings cannot answer — not built, too many changes since (a rebuild is
 * due), a word they do not hold — and the caller reads memories_vocab instead.
 * Design notes: docs/design-notes.md, "main/core/store/index/word-postings.ts".
 */
export const POSTINGS_STATE_KEY = 'word_postings';
/** The state of postings that answer; another value ('off') means they were not built. */
export const POSTINGS_READY = 'ready';
/** Past this many changed memories a query reads memories_vocab, until the postings are rebuilt. */
export const MAX_CHANGED_DOCS = 4096;

/** The blobs hold numbers in the machine's order; only a little-endian machine builds or reads them. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const STATE_SQL = `SELECT value FROM meta WHERE key = '${POSTINGS_STATE_KEY}'`;
const CHANGED_SQL = 'SELECT doc FROM postings_changed ORDER BY doc LIMIT ?';
const BASE_SQL = 'SELECT docs, freqs, slots FROM word_postings WHERE term = ?';
const DELTA_SQL = 'SELECT doc, freq FROM postings_delta WHERE term = ? ORDER BY doc';

/** The postings' state in meta: POSTINGS_READY, another word (word-postings-upkeep.ts), or undefined when never built. */
export function postingsState(db: Database.Database): string | undefined {
  return statement(db, STATE_SQL).pluck().get() as string | undefined;
}

/** The changed memories, ascending; undefined when the postings cannot answer at all. */
function changedDocs(db: Database.Database): Int32Array | undefined {
  // Kept until the index changes: the daemon reads them once per change, not once per word.
  const kept = keptUntilChange<Int32Array | null>(db, 'postings-changed');
  if (!kept.has(0)) {
    let docs: Int32Array | null = null;
    if (postingsState(db) === POSTINGS_READY) {
      const listed = statement(db, CHANGED_SQL)
        .pluck()
        .all(MAX_CHANGED_DOCS + 1) as number[];
      if (listed.length <= MAX_CHANGED_DOCS) docs = Int32Array.from(listed);
    }
    kept.set(0, docs);
  }
  return kept.get(0) ?? undefined;
}

/**
 * A blob's bytes as typed-array elements of `bytes` each, over the same memory; copied first when
 * they do not start aligned. Slots are read as whole 4-byte units, to be copied one memory at a
 * time (their bytes stay as they are).
 */
function viewOf<T>(blob: Uint8Array, bytes: number, make: (buffer: ArrayBufferLike, offset: number, length: number) => T): T {
  const aligned = blob.byteOffset % bytes === 0 ? blob : Uint8Array.from(blob);
  return make(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / bytes));
}
const int32s = (blob: Uint8Array) => viewOf(blob, 4, (buffer, offset, length) => new Int32Array(buffer, offset, length));
const uint32s = (blob: Uint8Array) => viewOf(blob, 4, (buffer, offset, length) => new Uint32Array(buffer, offset, length));
const uint16s = (blob: Uint8Array) => viewOf(blob, 2, (buffer, offset, length) => new Uint16Array(buffer, offset, length));

export function wordPostings(db: Database.Database, word: string): WordMatches | undefined {
  if (!LITTLE_ENDIAN || !isPostingsWord(word)) return undefined;
  const changed = changedDocs(db);
  if (!changed) return undefined;
  const row = statement(db, BASE_SQL).raw().get(word) as [Buffer | null, Buffer | null, Buffer | null] | undefined;
  let docs: Int32Array = new Int32Array(0);
  let freqs: Uint16Array = new Uint16Array(0);
  let slots: Uint8Array | undefined = new Uint8Array(0);
  if (row) {
    // NULL blobs: a frequency past 65,535 somewhere; the instance list answers that word.
    if (!row[0] || !row[1] || row[0].byteLength !== row[1].byteLength * 2) return undefined;
    docs = int32s(row[0]);
    freqs = uint16s(row[1]);
    // No slots (or not one a memory): the ranking reads the pages for them.
    slots = row[2]?.byteLength === docs.length * SLOT_BYTES ? row[2] : undefined;
  }
  if (!changed.length) return { docs, freq: new Int32Array(freqs), ...(slots ? { slots } : {}) };
  return mergeChanges(db, { docs, freqs, slots }, changed, statement(db, DELTA_SQL).raw().all(word) as Array<[number, number]>);
}

interface Blobs {
  docs: Int32Array;
  freqs: Uint16Array;
  slots: Uint8Array | undefined;
}

/**
 * The blob's matches less the changed memories, with the changed memories' current ones in
 * order; their slots, when the blob has slots, from the rank pages.
 */
function mergeChanges(
  db: Database.Database,
  { docs, freqs, slots }: Blobs,
  changed: Int32Array,
  delta: Array<[number, number]>,
): WordMatches {
  const outDocs = new Int32Array(docs.length + delta.length);
  const outFreq = new Int32Array(docs.length + delta.length);
  const blobSlots = slots && uint32s(slots);
  const outSlots = slots && new Uint32Array(docs.length + delta.length);
  let count = 0;
  let c = 0;
  let d = 0;
  for (let i = 0; i < docs.length; i += 1) {
    const doc = docs[i]!;
    for (; d < delta.length && delta[d]![0] < doc; d += 1, count += 1) {
      outDocs[count] = delta[d]![0];
      outFreq[count] = delta[d]![1];
    }
    while (c < changed.length && changed[c]! < doc) c += 1;
    if (changed[c] === doc) continue;
    outDocs[count] = doc;
    outFreq[count] = freqs[i]!;
    if (outSlots) outSlots[count] = blobSlots![i]!;
    count += 1;
  }
  for (; d < delta.length; d += 1, count += 1) {
    outDocs[count] = delta[d]![0];
    outFreq[count] = delta[d]![1];
  }
  const merged: WordMatches = { docs: outDocs.subarray(0, count), freq: outFreq.subarray(0, count) };
  if (!outSlots) return merged;
  if (delta.length) placeDeltaSlots(db, merged.docs, delta, outSlots);
  return { ...merged, slots: new Uint8Array(outSlots.buffer, 0, count * SLOT_BYTES) };
}

/** The changed memories' slots, read from the rank pages, put where each memory landed in `docs`. */
function placeDeltaSlots(db: Database.Database, docs: Int32Array, delta: Array<[number, number]>, into: Uint32Array): void {
  const changedDocs = Int32Array.from(delta, ([doc]) => doc);
  const read = uint32s(slotsFromPages(db, changedDocs));
  let at = 0;
  for (let d = 0; d < changedDocs.length; d += 1) {
    while (docs[at] !== changedDocs[d]) at += 1;
    into[at] = read[d]!;
  }
}
