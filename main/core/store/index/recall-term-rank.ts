import type Database from 'better-sqlite3';
import { COLUMN_WEIGHTS, PRIORITY_STEP, TYPE_WEIGHTS } from './recall-boost.js';
import { MEMORY_TYPES } from '../../../../common/memory.js';
import { lookupRoleCode, pageOf, slotExpires, slotOffset, slotPriority, slotRoleCode, slotTokens, slotTypeIndex } from './rank-pages.js';
import { statement } from './statement-cache.js';

export interface Scored {
  rowid: number;
  score: number;
}

/**
 * Recall's own bm25 for a query of whole words — each one a single indexed token, the common
 * case of a two-character word such as 部署 (issue 17). FTS5's bm25() looks up every match's
 * size in memories_fts_docsize, about 0.5 µs a match: 9–14 ms for a word in a fifth of 100k
 * memories, most of a recall. Here the same numbers come in bulk: each word's instances from
 * memories_vocab (one string), each match's size, role, type and priority from rank_pages,
 * and the table's row count and token total from FTS5's own averages record; the arithmetic
 * is fts5_aux.c's fts5Bm25Function, operation for operation, so every score equals the SQL
 * ranking's to the last bit (recall-term-rank.test.ts compares them on every match).
 *
 * Undefined when it cannot answer exactly — the averages record in a format it does not know,
 * a match without a slot, a word list out of order — and the caller ranks with SQL instead.
 */
const K1 = 1.2;
const B = 0.75;
const COLUMN_CODE_SQL = `CASE col WHEN 'summary' THEN 0 WHEN 'tags' THEN 1 WHEN 'cues' THEN 2 ELSE 3 END`;
// One string per word: a row per instance into JavaScript costs ten times more. Each item is
// doc * 4 + column, so a single number carries both.
const INSTANCES_SQL = `SELECT group_concat(doc * 4 + ${COLUMN_CODE_SQL}) FROM memories_vocab WHERE term = ?`;
const AVERAGES_SQL = 'SELECT block FROM memories_fts_data WHERE id = 1';
const PAGES_SQL = 'SELECT page, slots FROM rank_pages WHERE page IN (SELECT value FROM json_each(?))';
const EXPIRES_SQL = 'SELECT expires_ms FROM memory_rank WHERE rowid = ?';

interface WordMatches {
  /** Memories holding the word, ascending. */
  docs: Int32Array;
  /** Per memory, the word's weighted frequency (a summary hit counts 3, tags and cues 2, body 1). */
  freq: Int32Array;
}

/** Past this a rowid does not fit the Int32Arrays below; the SQL ranking takes such an index. */
const MAX_DOC = 0x7fffffff;

/**
 * Parse `doc*4+column,…` (ascending by doc) with charCodeAt into typed arrays: a third of the
 * time of split() and Number(). Undefined when the list is out of order.
 */
function parseInstances(list: string | null): WordMatches | undefined {
  const capacity = list ? (list.length >> 1) + 1 : 0;
  const docs = new Int32Array(capacity);
  const freq = new Int32Array(capacity);
  let count = 0;
  let value = 0;
  const length = list?.length ?? 0;
  for (let i = 0; i <= length && list; i += 1) {
    const code = i < length ? list.charCodeAt(i) : 44; // ','
    if (code !== 44) {
      value = value * 10 + (code - 48);
      continue;
    }
    const doc = Math.floor(value / 4);
    const weight = COLUMN_WEIGHTS[value % 4]!;
    value = 0;
    if (count > 0 && docs[count - 1] === doc) {
      freq[count - 1] = freq[count - 1]! + weight;
      continue;
    }
    if (doc > MAX_DOC || (count > 0 && docs[count - 1]! > doc)) return undefined;
    docs[count] = doc;
    freq[count] = weight;
    count += 1;
  }
  return { docs: docs.subarray(0, count), freq: freq.subarray(0, count) };
}

/** FTS5's averages record: varints, the row count then each column's token total. */
function tableStatistics(db: Database.Database): { rows: number; avgdl: number } | undefined {
  const block = statement(db, AVERAGES_SQL).pluck().get() as Buffer | undefined;
  if (!block) return undefined;
  const values: number[] = [];
  let value = 0;
  for (const byte of block) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    values.push(value);
    value = 0;
  }
  if (values.length !== 1 + COLUMN_WEIGHTS.length || values[0]! <= 0) return undefined;
  const [rows, ...totals] = values as [number, ...number[]];
  // fts5Bm25GetData: avgdl = (double)nToken / (double)nRow, nToken the sum of the column totals.
  return { rows, avgdl: totals.reduce((sum, total) => sum + total, 0) / rows };
}

/** The memories holding every word (all lists ascending), with each word's frequency there. */
function intersect(words: WordMatches[]): { docs: Int32Array; freqs: Int32Array[] } {
  const [first, ...rest] = words as [WordMatches, ...WordMatches[]];
  if (!rest.length) return { docs: first.docs, freqs: [first.freq] };
  const docs = new Int32Array(first.docs.length);
  const freqs = words.map(() => new Int32Array(first.docs.length));
  const cursors = rest.map(() => 0);
  let count = 0;
  outer: for (let i = 0; i < first.docs.length; i += 1) {
    const doc = first.docs[i]!;
    for (let w = 0; w < rest.length; w += 1) {
      const list = rest[w]!.docs;
      let c = cursors[w]!;
      while (c < list.length && list[c]! < doc) c += 1;
      cursors[w] = c;
      if (list[c] !== doc) continue outer;
    }
    docs[count] = doc;
    freqs[0]![count] = first.freq[i]!;
    for (let w = 0; w < rest.length; w += 1) freqs[w + 1]![count] = rest[w]!.freq[cursors[w]!]!;
    count += 1;
  }
  return { docs: docs.subarray(0, count), freqs: freqs.map((freq) => freq.subarray(0, count)) };
}

function readPages(db: Database.Database, docs: Int32Array): Map<number, Buffer> {
  const wanted: number[] = [];
  for (const doc of docs) {
    const page = pageOf(doc);
    if (wanted[wanted.length - 1] !== page) wanted.push(page);
  }
  const rows = statement(db, PAGES_SQL).raw().all(JSON.stringify(wanted)) as Array<[number, Buffer]>;
  return new Map(rows);
}

/** The best `limit` so far, best first (score, then rowid, as the SQL ranking orders). */
class TopScores {
  readonly entries: Scored[] = [];
  constructor(private readonly limit: number) {}

  wouldTake(score: number, rowid: number): boolean {
    if (this.entries.length < this.limit) return true;
    const last = this.entries[this.entries.length - 1]!;
    return score > last.score || (score === last.score && rowid < last.rowid);
  }

  add(entry: Scored): void {
    const before = (other: Scored) => other.score > entry.score || (other.score === entry.score && other.rowid < entry.rowid);
    let at = this.entries.length;
    while (at > 0 && !before(this.entries[at - 1]!)) at -= 1;
    this.entries.splice(at, 0, entry);
    if (this.entries.length > this.limit) this.entries.pop();
  }
}

/** Type weights by MEMORY_TYPES index; a type it does not know weighs 1, as SQL's CASE … ELSE 1. */
const WEIGHT_BY_TYPE_INDEX = MEMORY_TYPES.map((type) => TYPE_WEIGHTS[type]);

/** ELIGIBLE_SQL's expiry half, asked only of a memory that has one and would make the answer. */
function expired(db: Database.Database, rowid: number, nowMs: number): boolean {
  const expiresMs = statement(db, EXPIRES_SQL).pluck().get(rowid) as number | null | undefined;
  // No memory_rank row: the SQL ranking's join would not return it either.
  if (expiresMs === undefined) return true;
  return expiresMs !== null && !(expiresMs > nowMs);
}

/**
 * The best `limit` memories of a role holding every word, expired ones left out, scored as
 * SQL's `-bm25(memories_fts, 3, 2, 2, 1) × type weight × priority step` scores them.
 */
export function rankWholeWords(
  db: Database.Database,
  role: string,
  words: readonly string[],
  limit: number,
  nowMs: number,
): Scored[] | undefined {
  if (!words.length) return undefined;
  const statistics = tableStatistics(db);
  if (!statistics) return undefined;
  const matches: WordMatches[] = [];
  for (const word of words) {
    const parsed = parseInstances(statement(db, INSTANCES_SQL).pluck().get(word) as string | null);
    if (!parsed) return undefined;
    matches.push(parsed);
  }
  const code = lookupRoleCode(db, role);
  const { docs, freqs } = intersect(matches);
  if (!docs.length || code === undefined) return [];
  // fts5Bm25GetData: nHit is how many rows hold the phrase, IDF floored at 1e-6.
  const idfs = matches.map(({ docs: holding }) => {
    const idf = Math.log((statistics.rows - holding.length + 0.5) / (holding.length + 0.5));
    return idf <= 0 ? 1e-6 : idf;
  });
  const { avgdl } = statistics;
  const pages = readPages(db, docs);
  const top = new TopScores(limit);
  let pageNumber = -1;
  let page: Buffer | undefined;
  for (let i = 0; i < docs.length; i += 1) {
    const doc = docs[i]!;
    if (pageOf(doc) !== pageNumber) {
      pageNumber = pageOf(doc);
      page = pages.get(pageNumber);
      if (!page) return undefined;
    }
    const offset = slotOffset(doc);
    const slotRole = slotRoleCode(page!, offset);
    if (slotRole === 0) return undefined;
    if (slotRole !== code) continue;
    // fts5Bm25Function, in its order of operations.
    const D = slotTokens(page!, offset);
    let text = 0;
    for (let w = 0; w < idfs.length; w += 1) {
      const f = freqs[w]![i]!;
      text += idfs[w]! * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / avgdl)));
    }
    const score =
      text * (WEIGHT_BY_TYPE_INDEX[slotTypeIndex(page!, offset)] ?? 1) * (1 + (slotPriority(page!, offset) - 3) * PRIORITY_STEP);
    if (!top.wouldTake(score, doc)) continue;
    if (slotExpires(page!, offset) && expired(db, doc, nowMs)) continue;
    top.add({ rowid: doc, score });
  }
  return top.entries;
}
