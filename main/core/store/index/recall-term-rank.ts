import type Database from 'better-sqlite3';
import { COLUMN_WEIGHTS, PRIORITY_STEP, TYPE_WEIGHTS } from './recall-boost.js';
import { MEMORY_TYPES } from '../../../../common/memory.js';
import {
  lookupRoleCode,
  SLOT_EXPIRES_BIT,
  SLOT_FLAGS,
  SLOT_PRIORITY_SHIFT,
  SLOT_ROLE,
  SLOT_TOKENS,
  SLOT_TYPE_MASK,
  SLOT_BYTES,
} from './rank-pages.js';
import { slotsFromPages } from './rank-slots.js';
import { ftsTableStatistics } from './fts5-records.js';
import { statement } from './statement-cache.js';
import { parseInstances, type WordMatches } from './instance-list.js';
import { wordPostings } from './word-postings.js';
import { scoreOneWord, type ScoredCandidates } from './word-scorer/wasm-word-scorer.js';

export interface Scored {
  rowid: number;
  score: number;
}

/**
 * Recall's own bm25 for a query of whole words — each one a single indexed token, the common
 * case of a two-character word such as 部署 (issue 17). FTS5's bm25() looks up every match's
 * size in memories_fts_docsize, about 0.5 µs a match: 9–14 ms for a word in a fifth of 100k
 * memories, most of a recall. Here the same numbers come in bulk: each word's instances from
 * memories_vocab (one string), each match's size, role, type and priority from its rank slot
 * (the word postings carry them; rank-slots.ts reads the rest from rank_pages), and the table's
 * row count and token total from FTS5's own averages record; the arithmetic
 * is fts5_aux.c's fts5Bm25Function, operation for operation, so every score equals the SQL
 * ranking's to the last bit (recall-term-rank.test.ts compares them on every match).
 *
 * Undefined when it cannot answer exactly — the averages record in a format it does not know,
 * a match without a slot, a word list out of order — and the caller ranks with SQL instead.
 */
const K1 = 1.2;
const B = 0.75;
// One string per word: a row per instance into JavaScript costs ten times more. Each item is
// doc * 5 + a code for the column: the first letters of summary, tags, cues and body are
// distinct modulo 5 (0, 1, 4, 3), and unicode() costs less than comparing the names
// (instance-list.ts reads it).
const INSTANCES_SQL = 'SELECT group_concat(doc * 5 + unicode(col) % 5) FROM memories_vocab WHERE term = ?';
const EXPIRES_SQL = 'SELECT expires_ms FROM memory_rank WHERE rowid = ?';

interface Intersection {
  docs: Int32Array;
  freqs: Int32Array[];
  /** The memories' rank slots, when the first word's matches carry them. */
  slots: Uint8Array | undefined;
}

/** The memories holding every word (all lists ascending), with each word's frequency there. */
function intersect(words: WordMatches[]): Intersection {
  const [first, ...rest] = words as [WordMatches, ...WordMatches[]];
  if (!rest.length) return { docs: first.docs, freqs: [first.freq], slots: first.slots };
  const docs = new Int32Array(first.docs.length);
  const freqs = words.map(() => new Int32Array(first.docs.length));
  const kept = new Int32Array(first.docs.length);
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
    kept[count] = i;
    freqs[0]![count] = first.freq[i]!;
    for (let w = 0; w < rest.length; w += 1) freqs[w + 1]![count] = rest[w]!.freq[cursors[w]!]!;
    count += 1;
  }
  return {
    docs: docs.subarray(0, count),
    freqs: freqs.map((freq) => freq.subarray(0, count)),
    slots: first.slots && slotsAt(first.slots, kept.subarray(0, count)),
  };
}

/** The slots of the first word's matches at `positions`. */
function slotsAt(slots: Uint8Array, positions: Int32Array): Uint8Array {
  const out = new Uint8Array(positions.length * SLOT_BYTES);
  for (let k = 0; k < positions.length; k += 1)
    for (let byte = 0; byte < SLOT_BYTES; byte += 1) out[k * SLOT_BYTES + byte] = slots[positions[k]! * SLOT_BYTES + byte]!;
  return out;
}

/** The best `limit` so far, best first (score, then rowid, as the SQL ranking orders). */
class TopScores {
  readonly entries: Scored[] = [];
  /** The limit-th entry once there are `limit`: fields, not a method, so the scoring loop makes no call to pass a match over. */
  full = false;
  floorScore = 0;
  floorRowid = 0;
  constructor(private readonly limit: number) {}

  add(entry: Scored): void {
    const before = (other: Scored) => other.score > entry.score || (other.score === entry.score && other.rowid < entry.rowid);
    let at = this.entries.length;
    while (at > 0 && !before(this.entries[at - 1]!)) at -= 1;
    this.entries.splice(at, 0, entry);
    if (this.entries.length > this.limit) this.entries.pop();
    if (this.entries.length < this.limit) return;
    this.full = true;
    this.floorScore = this.entries[this.limit - 1]!.score;
    this.floorRowid = this.entries[this.limit - 1]!.rowid;
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
  const statistics = ftsTableStatistics(db, COLUMN_WEIGHTS.length);
  if (!statistics) return undefined;
  const matches: WordMatches[] = [];
  for (const word of words) {
    const parsed = wordPostings(db, word) ?? parseInstances(statement(db, INSTANCES_SQL).pluck().get(word) as string | null);
    if (!parsed) return undefined;
    matches.push(parsed);
  }
  const code = lookupRoleCode(db, role);
  const { docs, freqs, slots: carried } = intersect(matches);
  if (!docs.length || code === undefined) return [];
  // fts5Bm25GetData: nHit is how many rows hold the phrase, IDF floored at 1e-6.
  const idfs = matches.map(({ docs: holding }) => {
    const idf = Math.log((statistics.rows - holding.length + 0.5) / (holding.length + 0.5));
    return idf <= 0 ? 1e-6 : idf;
  });
  const slots = carried ?? slotsFromPages(db, docs);
  const matched: Matches = { docs, freqs, idfs, slots, code, avgdl: statistics.avgdl };
  if (idfs.length === 1) {
    const scoring = {
      idf: idfs[0]!,
      avgdl: statistics.avgdl,
      k1: K1,
      b: B,
      typeWeights: WEIGHT_BY_TYPE_INDEX,
      priorityStep: PRIORITY_STEP,
    };
    const candidates = scoreOneWord({ docs, freqs: freqs[0]!, slots, code }, scoring, limit);
    if (candidates !== 'unavailable') return candidates && pickAnswer(db, candidates, limit, nowMs).entries;
  }
  return scoreMatches(db, matched, limit, nowMs)?.entries;
}

/**
 * The answer from a word's candidates (wasm-word-scorer.ts), as the scoring loop picks it: in
 * rowid order, each into the best `limit` unless below them or expired — asked only of the
 * few with an expiry that would make it.
 */
function pickAnswer(db: Database.Database, candidates: ScoredCandidates, limit: number, nowMs: number): TopScores {
  const top = new TopScores(limit);
  const { docs, scores, expiring } = candidates;
  for (let i = 0; i < docs.length; i += 1) {
    const doc = docs[i]!;
    const score = scores[i]!;
    if (top.full && (score < top.floorScore || (score === top.floorScore && doc > top.floorRowid))) continue;
    if (expiring[i] && expired(db, doc, nowMs)) continue;
    top.add({ rowid: doc, score });
  }
  return top;
}

interface Matches {
  docs: Int32Array;
  freqs: Int32Array[];
  idfs: number[];
  /** Each match's rank slot, SLOT_BYTES each (rank-pages.ts layout). */
  slots: Uint8Array;
  code: number;
  avgdl: number;
}

/**
 * The scoring loop, in a function of its own: V8 optimises a long loop while it runs (on-stack
 * replacement), before the code after it has ever run. With the loop inside rankWholeWords, that
 * code then met the rest of the function without type feedback and was thrown away at the loop's
 * end, on every recall of a daemon: 0.7 ms a common word at 100k against 0.25 (session 19, seen
 * with --trace-deopt).
 */
function scoreMatches(db: Database.Database, matches: Matches, limit: number, nowMs: number): TopScores | undefined {
  const { docs, freqs, idfs, slots, code, avgdl } = matches;
  const top = new TopScores(limit);
  // The first word outside the words' loop: most queries are one word, and in a fresh process
  // every operation of this loop is paid per match (0 + x is x, so the sum is unchanged).
  const firstFreq = freqs[0]!;
  const firstIdf = idfs[0]!;
  // The loop reads the slot bytes itself (rank-pages.ts layout) and calls nothing for a match
  // that does not make the answer: a CLI recall runs it once, in a fresh process, mostly before
  // V8 optimises it, where each call costs.
  for (let i = 0; i < docs.length; i += 1) {
    const doc = docs[i]!;
    const offset = i * SLOT_BYTES;
    const slotRole = slots[offset + SLOT_ROLE]!;
    // An empty slot: no memory there as the pages tell it, or one they cannot hold.
    if (slotRole === 0) return undefined;
    if (slotRole !== code) continue;
    // fts5Bm25Function, in its order of operations.
    const D = slots[offset + SLOT_TOKENS]! | (slots[offset + SLOT_TOKENS + 1]! << 8);
    const f0 = firstFreq[i]!;
    let text = firstIdf * ((f0 * (K1 + 1.0)) / (f0 + K1 * (1 - B + (B * D) / avgdl)));
    for (let w = 1; w < idfs.length; w += 1) {
      const f = freqs[w]![i]!;
      text += idfs[w]! * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / avgdl)));
    }
    const flags = slots[offset + SLOT_FLAGS]!;
    const score = text * (WEIGHT_BY_TYPE_INDEX[flags & SLOT_TYPE_MASK] ?? 1) * (1 + ((flags >> SLOT_PRIORITY_SHIFT) - 3) * PRIORITY_STEP);
    if (top.full && (score < top.floorScore || (score === top.floorScore && doc > top.floorRowid))) continue;
    if (flags & SLOT_EXPIRES_BIT && expired(db, doc, nowMs)) continue;
    top.add({ rowid: doc, score });
  }
  return top;
}
