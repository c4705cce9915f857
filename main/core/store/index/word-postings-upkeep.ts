import type Database from 'better-sqlite3';
import { describeError } from '../../../../common/errors.js';
import type { Logger } from '../../platform/config/log.js';
import type { MemoryIndex } from './memory-index.js';
import { parseByHand } from './instance-list.js';
import type { SearchText } from './memory-rows.js';
import { isPostingsWord, POSTINGS_RANGES, postingsWordsOf } from './postings-words.js';
import { allRankPages, slotsIn } from './rank-slots.js';
import { statement } from './statement-cache.js';
import { LITTLE_ENDIAN, MAX_CHANGED_DOCS, POSTINGS_READY, POSTINGS_STATE_KEY, postingsState } from './word-postings.js';

/**
 * Building the word postings and logging what changes after (word-postings.ts, issue 17).
 *
 * Built from memories_vocab itself, so the blobs hold exactly what FTS5 holds, and each memory's
 * rank slot from the rank pages: about 2 s at 100,000 memories, run where the index is rebuilt
 * anyway (a reindex, migration 8), in the daemon's idle time and after a sleep once enough has
 * changed. Between builds every memory whose full-text row is written or deleted, or whose rank
 * slot changes, is logged with its current words (postings-words.ts), an insert per word instead
 * of rewriting the blob of every word it holds — a common word's blob is 120 KB at 100k.
 *
 * The log is bounded: past MAX_CHANGED_DOCS memories the postings are 'stale' — queries read
 * memories_vocab, nothing more is logged — until rebuilt. A first sync of a whole home, or a
 * merge that brings thousands of files, would otherwise log a hundred words for each.
 */
/** Changed memories after which the postings are rebuilt when there is time. */
export const REBUILD_AFTER_CHANGED = 1024;
/** Past this a rowid does not fit the blobs' Int32Arrays (as instance-list.ts). */
const MAX_DOC = 0x7fffffff;
const MAX_FREQ = 0xffff;
/** Not built, and not to be: a rowid past MAX_DOC, or a big-endian machine. */
const OFF = 'off';
/** Built, but too much changed since: not used, not logged, due to be rebuilt. */
const STALE = 'stale';
const CHANGED_KEY = `${POSTINGS_STATE_KEY}_changed`;

const SET_STATE_SQL = `INSERT OR REPLACE INTO meta (key, value) VALUES ('${POSTINGS_STATE_KEY}', ?)`;
const CHANGED_SQL = `SELECT CAST(value AS INTEGER) FROM meta WHERE key = '${CHANGED_KEY}'`;
const COUNT_CHANGE_SQL = `UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = '${CHANGED_KEY}' RETURNING CAST(value AS INTEGER)`;
// One row per word of a range, its instances as instance-list.ts reads them.
const WORDS_SQL = 'SELECT term, group_concat(doc * 5 + unicode(col) % 5) FROM memories_vocab WHERE term >= ? AND term < ? GROUP BY term';

function setState(db: Database.Database, state: string): void {
  statement(db, SET_STATE_SQL).run(state);
}

/** Forget the postings and their log; nothing is logged until they are built again. */
export function clearPostings(db: Database.Database): void {
  db.prepare(`DELETE FROM meta WHERE key IN ('${POSTINGS_STATE_KEY}', '${CHANGED_KEY}')`).run();
  db.prepare('DELETE FROM word_postings').run();
  clearLog(db);
}

function clearLog(db: Database.Database): void {
  db.prepare('DELETE FROM postings_changed').run();
  db.prepare('DELETE FROM postings_delta').run();
}

/**
 * Build the postings from what the full-text index holds now; the caller holds a write
 * transaction. An index without memories is left unbuilt (due): every memory a first sync adds
 * would only be logged.
 */
export function buildPostings(db: Database.Database): void {
  clearPostings(db);
  const maxRowid = db.prepare('SELECT max(rowid) FROM memories').pluck().get() as number | null;
  if (maxRowid === null) return;
  if (!LITTLE_ENDIAN || maxRowid > MAX_DOC) {
    setState(db, OFF);
    return;
  }
  const insert = db.prepare('INSERT INTO word_postings (term, docs, freqs, slots) VALUES (?, ?, ?, ?)');
  const pages = allRankPages(db);
  for (const [first, last] of POSTINGS_RANGES) {
    // Listed before any insert: a connection runs one statement at a time.
    const rows = db
      .prepare(WORDS_SQL)
      .raw()
      .all(String.fromCharCode(first), String.fromCharCode(last + 1)) as Array<[string, string]>;
    for (const [term, list] of rows) {
      if (!isPostingsWord(term)) continue;
      const matches = parseByHand(list);
      const fits = matches !== undefined && matches.freq.every((freq) => freq <= MAX_FREQ);
      if (!fits) {
        insert.run(term, null, null, null); // read from memories_vocab instead
        continue;
      }
      insert.run(
        term,
        Buffer.from(matches.docs.buffer, matches.docs.byteOffset, matches.docs.byteLength),
        Buffer.from(Uint16Array.from(matches.freq).buffer),
        slotsIn(pages, matches.docs),
      );
    }
  }
  db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('${CHANGED_KEY}', '0')`).run();
  setState(db, POSTINGS_READY);
}

/**
 * Log a memory whose full-text row was just written (`text`) or deleted (undefined), in the
 * same transaction. Only while the postings are in use: before, there is nothing to correct.
 */
export function logPostingsChange(db: Database.Database, doc: number, text: SearchText | undefined): void {
  if (postingsState(db) !== POSTINGS_READY) return;
  if (doc > MAX_DOC) {
    clearPostings(db);
    setState(db, OFF);
    return;
  }
  if (statement(db, 'INSERT OR IGNORE INTO postings_changed (doc) VALUES (?)').run(doc).changes) {
    const changed = statement(db, COUNT_CHANGE_SQL).pluck().get() as number | undefined;
    if (changed === undefined || changed > MAX_CHANGED_DOCS) {
      clearLog(db);
      setState(db, STALE);
      return;
    }
  }
  statement(db, 'DELETE FROM postings_delta WHERE doc = ?').run(doc);
  if (!text) return;
  const insert = statement(db, 'INSERT INTO postings_delta (term, doc, freq) VALUES (?, ?, ?)');
  for (const [word, freq] of postingsWordsOf(text)) insert.run(word, doc, freq);
}

/** Whether the postings should be built (again): never built, stale, or enough changed since. */
export function postingsRebuildDue(db: Database.Database): boolean {
  const state = postingsState(db);
  if (state === STALE) return true;
  // Never built: due once there is something to build from.
  if (state === undefined) return statement(db, 'SELECT 1 FROM memories LIMIT 1').get() !== undefined;
  if (state !== POSTINGS_READY) return false;
  return ((statement(db, CHANGED_SQL).pluck().get() as number | undefined) ?? Infinity) > REBUILD_AFTER_CHANGED;
}

/**
 * Build the postings when due, in a transaction of its own (about 2 s at 100,000 memories, which
 * a recall meanwhile waits out in busy_timeout). Never fails the caller: until built, recall
 * reads memories_vocab and answers the same.
 */
export function keepPostingsBuilt(index: MemoryIndex, logger: Logger): void {
  try {
    if (postingsRebuildDue(index.db)) index.db.transaction(() => buildPostings(index.db)).immediate();
  } catch (error) {
    logger.info('recall', `the word postings were not rebuilt (the next pause tries again): ${describeError(error)}`);
  }
}
