import type Database from 'better-sqlite3';
import { keptUntilChange } from './kept-until-change.js';
import { PAGE_BYTES, pageOf, slotOffset, SLOT_BYTES } from './rank-pages.js';
import { statement } from './statement-cache.js';

/**
 * The rank slots (rank-pages.ts) of a list of memories, side by side in the list's order:
 * `SLOT_BYTES` a memory, what recall's own ranking scores them with (recall-term-rank.ts). The
 * word postings carry their memories' slots this way (word-postings.ts); this reads them from
 * the pages for what the postings do not cover — the memories changed since they were built, a
 * word read from memories_vocab. A memory whose page is missing gets an empty slot (role 0),
 * which the ranking leaves to SQL, as it did a missing page.
 */
const SPAN_SQL = 'SELECT page, slots FROM rank_pages WHERE page BETWEEN ? AND ?';
const PAGE_SQL = 'SELECT slots FROM rank_pages WHERE page = ?';
/** Up to this many pages missing, each is read alone; past it, the span between them in one statement. */
const SINGLE_READS = 8;

/**
 * The pages `docs` (ascending) fall in, by number. Kept until the index changes
 * (kept-until-change.ts): a process that recalls again and again (the daemon) reads each page
 * once per change instead of on every recall. A page that has no row is kept as null.
 */
function pagesOf(db: Database.Database, docs: Int32Array): Map<string | number, Buffer | null> {
  const kept = keptUntilChange<Buffer | null>(db, 'rank-pages');
  const missing: number[] = [];
  for (let i = 0; i < docs.length; i += 1) {
    const page = pageOf(docs[i]!);
    if (!kept.has(page) && missing[missing.length - 1] !== page) missing.push(page);
  }
  if (missing.length > SINGLE_READS) {
    const first = missing[0]!;
    const last = missing[missing.length - 1]!;
    for (let page = first; page <= last; page += 1) if (!kept.has(page)) kept.set(page, null);
    for (const [page, slots] of statement(db, SPAN_SQL).raw().all(first, last) as Array<[number, Buffer]>) kept.set(page, slots);
  } else {
    for (const page of missing) kept.set(page, (statement(db, PAGE_SQL).pluck().get(page) as Buffer | undefined) ?? null);
  }
  return kept;
}

/** The slots of `docs` (ascending), SLOT_BYTES each, from the rank pages. */
export function slotsFromPages(db: Database.Database, docs: Int32Array): Uint8Array {
  return docs.length ? slotsIn(pagesOf(db, docs), docs) : new Uint8Array(0);
}

/**
 * Every rank page, by number: what building the word postings reads once for all their words
 * (word-postings-upkeep.ts), where reading per word would read the same pages thousands of times.
 */
export function allRankPages(db: Database.Database): Map<number, Buffer> {
  return new Map(db.prepare('SELECT page, slots FROM rank_pages').raw().all() as Array<[number, Buffer]>);
}

/** The slots of `docs` from pages already read (a page not there gives empty slots). */
export function slotsIn(pages: ReadonlyMap<string | number, Buffer | null>, docs: Int32Array): Uint8Array {
  const out = new Uint8Array(docs.length * SLOT_BYTES);
  for (let i = 0; i < docs.length; i += 1) {
    const doc = docs[i]!;
    const page = pages.get(pageOf(doc));
    // A page of another size is not one the slots can be read from: empty, so SQL ranks.
    if (!page || page.length !== PAGE_BYTES) continue;
    const from = slotOffset(doc);
    const to = i * SLOT_BYTES;
    out[to] = page[from]!;
    out[to + 1] = page[from + 1]!;
    out[to + 2] = page[from + 2]!;
    out[to + 3] = page[from + 3]!;
  }
  return out;
}
