import type Database from 'better-sqlite3';
import { describeError } from '../../../../common/errors.js';
import type { Logger } from '../../platform/config/log.js';
import type { MemoryIndex } from './memory-index.js';
import { parseByHand } from './instance-list.js';
import type { SearchText } from './memory-rows.js';
import { isPostingsWord, POSTINGS_RANGES, postingsWordsOf } from './postings-words.js';
import { statement } from './statement-cache.js';
import { LITTLE_ENDIAN, POSTINGS_READY, POSTINGS_STATE_KEY } from './word-postings.js';

/**
 * Building the word postings and logging what changes after (word-postings.ts, issue 17).
 *
 * Built from memories_vocab itself, so the blobs hold exactly what FTS5 holds: about 2 s at
 * 100,000 memories, run where the index is rebuilt anyway (a reindex, migration 7) or in the
 * daemon's idle time once enough has changed. Between builds every memory whose full-text row is
 * written or deleted is logged with its current words (postings-words.ts), an insert per word
 * instead of rewriting the blob of every word it holds — a common word's blob is 120 KB at 100k.
 */
/** Changed memories after which the daemon rebuilds in idle time (queries stop using them at MAX_CHANGED_DOCS). */
export const REBUILD_AFTER_CHANGED = 1024;
/** Past this a rowid does not fit the blobs' Int32Arrays (as instance-list.ts). */
const MAX_DOC = 0x7fffffff;
const MAX_FREQ = 0xffff;
const OFF = 'off';

const STATE_SQL = `SELECT value FROM meta WHERE key = '${POSTINGS_STATE_KEY}'`;
const SET_STATE_SQL = `INSERT OR REPLACE INTO meta (key, value) VALUES ('${POSTINGS_STATE_KEY}', ?)`;
// One row per word of a range, its instances as instance-list.ts reads them.
const WORDS_SQL = 'SELECT term, group_concat(doc * 5 + unicode(col) % 5) FROM memories_vocab WHERE term >= ? AND term < ? GROUP BY term';

/** Forget the postings; nothing is logged until they are built again. */
export function clearPostings(db: Database.Database): void {
  db.prepare(`DELETE FROM meta WHERE key = '${POSTINGS_STATE_KEY}'`).run();
  db.prepare('DELETE FROM word_postings').run();
  db.prepare('DELETE FROM postings_changed').run();
  db.prepare('DELETE FROM postings_delta').run();
}

/** Build the postings from what the full-text index holds now. The caller holds a write transaction. */
export function buildPostings(db: Database.Database): void {
  clearPostings(db);
  const maxRowid = db.prepare('SELECT max(rowid) FROM memories').pluck().get() as number | null;
  if (!LITTLE_ENDIAN || (maxRowid !== null && maxRowid > MAX_DOC)) {
    db.prepare(SET_STATE_SQL).run(OFF);
    return;
  }
  const insert = db.prepare('INSERT INTO word_postings (term, docs, freqs) VALUES (?, ?, ?)');
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
        insert.run(term, null, null); // read from memories_vocab instead
        continue;
      }
      insert.run(
        term,
        Buffer.from(matches.docs.buffer, matches.docs.byteOffset, matches.docs.byteLength),
        Buffer.from(Uint16Array.from(matches.freq).buffer),
      );
    }
  }
  db.prepare(SET_STATE_SQL).run(POSTINGS_READY);
}

/**
 * Log a memory whose full-text row was just written (`text`) or deleted (undefined), in the
 * same transaction. Only while the postings are built: before, there is nothing to correct.
 */
export function logPostingsChange(db: Database.Database, doc: number, text: SearchText | undefined): void {
  if (statement(db, STATE_SQL).pluck().get() !== POSTINGS_READY) return;
  if (doc > MAX_DOC) {
    clearPostings(db);
    statement(db, SET_STATE_SQL).run(OFF);
    return;
  }
  statement(db, 'INSERT OR IGNORE INTO postings_changed (doc) VALUES (?)').run(doc);
  statement(db, 'DELETE FROM postings_delta WHERE doc = ?').run(doc);
  if (!text) return;
  const insert = statement(db, 'INSERT INTO postings_delta (term, doc, freq) VALUES (?, ?, ?)');
  for (const [word, freq] of postingsWordsOf(text)) insert.run(word, doc, freq);
}

/** Whether the postings should be built (again): never built, or enough changed since. */
export function postingsRebuildDue(db: Database.Database): boolean {
  const state = statement(db, STATE_SQL).pluck().get() as string | undefined;
  if (state === undefined) return true;
  if (state !== POSTINGS_READY) return false;
  const changed = statement(db, 'SELECT count(*) FROM (SELECT 1 FROM postings_changed LIMIT ?)')
    .pluck()
    .get(REBUILD_AFTER_CHANGED + 1) as number;
  return changed > REBUILD_AFTER_CHANGED;
}

/**
 * Build the postings when due, in a transaction of its own (the daemon's idle time: about 2 s at
 * 100,000 memories, which a recall meanwhile waits out in busy_timeout). Never fails the caller:
 * until built, recall reads memories_vocab and answers the same.
 */
export function keepPostingsBuilt(index: MemoryIndex, logger: Logger): void {
  try {
    if (postingsRebuildDue(index.db)) index.db.transaction(() => buildPostings(index.db)).immediate();
  } catch (error) {
    logger.info('recall', `the word postings were not rebuilt (next pause tries again): ${describeError(error)}`);
  }
}
