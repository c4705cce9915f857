import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../bench/generate-memories.js';
import { memoryRowFor } from '../../../../test/helpers/memory-row.js';
import { segmentForIndex } from './cjk-segmenter.js';
import { migrate } from './index-schema.js';
import { parseWithJson, type WordMatches } from './instance-list.js';
import { deleteMemoryRow, writeMemoryRow, type SearchText } from './memory-rows.js';
import { isPostingsWord, POSTINGS_RANGES } from './postings-words.js';
import { slotsFromPages } from './rank-slots.js';
import { MAX_CHANGED_DOCS, wordPostings } from './word-postings.js';
import { buildPostings, postingsRebuildDue, REBUILD_AFTER_CHANGED } from './word-postings-upkeep.js';

// Han of the unified block and extension A, kana, Hangul, CJK and ASCII punctuation, Latin
// words, a character past the BMP and one Unicode added after SQLite's tables were made.
const PIECES = [
  '部署',
  '測試',
  '咖啡',
  '會議',
  '今天',
  '的',
  '很',
  '順',
  '㐀㐁',
  'かな',
  'カタカナ',
  '한국어',
  '，',
  '。',
  '、',
  ' ',
  'vitest',
  'API',
  '𠀀',
  '鿰',
  '部',
];

let db: Database.Database;
beforeEach(() => {
  db = new Database(':memory:');
  migrate(db);
});
afterEach(() => db.close());

function randomText(random: () => number, pieces: number): string {
  let text = '';
  for (let i = 0; i < pieces; i += 1) text += PIECES[Math.floor(random() * PIECES.length)];
  return text;
}

function searchText(random: () => number): SearchText {
  return {
    summary: segmentForIndex(randomText(random, 4)),
    tags: segmentForIndex(random() < 0.3 ? randomText(random, 2) : ''),
    cues: segmentForIndex(random() < 0.3 ? randomText(random, 3) : ''),
    body: segmentForIndex(randomText(random, 1 + Math.floor(random() * 30))),
  };
}

const row = (i: number, priority = 3) => memoryRowFor(`m${i}`, { priority });

const write = (i: number, text: SearchText, rowid?: number, priority?: number) =>
  db.transaction(() => writeMemoryRow(db, row(i, priority), text, rowid))();
const build = () => db.transaction(() => buildPostings(db))();

/** What memories_vocab says of a word: the truth the postings must equal. */
function fromVocab(word: string): WordMatches {
  const list = db.prepare('SELECT group_concat(doc * 5 + unicode(col) % 5) FROM memories_vocab WHERE term = ?').pluck().get(word) as
    string | null;
  return parseWithJson(list)!;
}

function postingsWords(): string[] {
  const terms = db.prepare('SELECT DISTINCT term FROM memories_vocab').pluck().all() as string[];
  return [...terms.filter(isPostingsWord), '從未', '部署'];
}

function expectSameAsVocab(): number {
  let compared = 0;
  for (const word of postingsWords()) {
    const own = wordPostings(db, word);
    expect(own, word).toBeDefined();
    const truth = fromVocab(word);
    expect([...own!.docs], word).toEqual([...truth.docs]);
    expect([...own!.freq], word).toEqual([...truth.freq]);
    // Each memory's rank slot as the pages hold it now, for blob and changed memories alike.
    expect(own!.slots, word).toBeDefined();
    expect([...own!.slots!], word).toEqual([...slotsFromPages(db, truth.docs)]);
    compared += truth.docs.length;
  }
  return compared;
}

describe('word postings (issue 17)', () => {
  it('equal memories_vocab and the rank pages for every word, built and then after rows are written, rewritten and deleted', () => {
    const random = seededRandom(17);
    const rowids: number[] = [];
    const texts: SearchText[] = [];
    for (let i = 0; i < 300; i += 1) {
      texts.push(searchText(random));
      rowids.push(write(i, texts[i]!, undefined, 1 + (i % 5)));
    }
    // Never built (the index was empty when migration 7 ran): memories_vocab answers.
    expect(wordPostings(db, '部署')).toBeUndefined();
    expect(postingsRebuildDue(db)).toBe(true);
    build();
    expect(db.prepare('SELECT count(*) FROM postings_changed').pluck().get()).toBe(0);
    expect(expectSameAsVocab()).toBeGreaterThan(300);

    rowids.forEach((rowid, i) => {
      if (i % 5 === 0) db.transaction(() => deleteMemoryRow(db, rowid))();
      else if (i % 3 === 0) write(i, searchText(random), rowid);
      // The same words, another priority: only the slot changed (a sleep's re-rating).
      else if (i % 7 === 0) write(i, texts[i]!, rowid, 5 - (i % 5));
      // A write-back: nothing the postings hold changed, so nothing is logged.
      else if (i % 11 === 0) write(i, texts[i]!, rowid, 1 + (i % 5));
    });
    for (let i = 300; i < 340; i += 1) write(i, searchText(random)); // new rows, some reusing deleted rowids
    expect(db.prepare('SELECT count(*) FROM postings_changed').pluck().get()).toBeGreaterThan(100);
    expect(expectSameAsVocab()).toBeGreaterThan(300);

    build();
    expect(expectSameAsVocab()).toBeGreaterThan(300);

    // Logged: a memory whose slot changed; not logged: one whose row changed in nothing ranked.
    const changed = () => db.prepare('SELECT count(*) FROM postings_changed').pluck().get();
    write(1, texts[1]!, rowids[1], 1 + (1 % 5));
    expect(changed()).toBe(0);
    write(1, texts[1]!, rowids[1], 4);
    expect(changed()).toBe(1);
    expect(expectSameAsVocab()).toBeGreaterThan(300);
  });

  it('hold only two-character words that FTS5 keeps whole, and leave every other word to memories_vocab', () => {
    write(1, searchText(seededRandom(3)));
    build();
    const stored = db.prepare('SELECT term FROM word_postings').pluck().all() as string[];
    expect(stored.length).toBeGreaterThan(5);
    expect(stored.every(isPostingsWord)).toBe(true);
    for (const word of ['vitest', '部', '部署流', '𠀀𠀀', '鿰鿰', 'ab']) expect(wordPostings(db, word), word).toBeUndefined();
  });

  it('answer nothing until built, once too much changed since, or for a word whose frequency does not fit', () => {
    expect(postingsRebuildDue(db)).toBe(false); // nothing to build from
    const random = seededRandom(4);
    write(1, searchText(random));
    expect(wordPostings(db, '部署')).toBeUndefined();
    expect(postingsRebuildDue(db)).toBe(true);
    build();
    expect(postingsRebuildDue(db)).toBe(false);
    expect(wordPostings(db, '部署')).toBeDefined();

    // Rewrites of one memory count once; new memories each count.
    for (let i = 0; i < 3; i += 1) write(1, searchText(random), 1);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'word_postings_changed'").pluck().get()).toBe('1');
    db.transaction(() => {
      for (let i = 2; i <= 1 + REBUILD_AFTER_CHANGED; i += 1) writeMemoryRow(db, row(i), searchText(random), undefined);
    })();
    expect(postingsRebuildDue(db)).toBe(true);
    expect(expectSameAsVocab()).toBeGreaterThan(100);
    // Past MAX_CHANGED_DOCS nothing more is logged, and queries read memories_vocab.
    db.transaction(() => {
      for (let i = 2 + REBUILD_AFTER_CHANGED; i <= MAX_CHANGED_DOCS + 1; i += 1) writeMemoryRow(db, row(i), searchText(random), undefined);
    })();
    expect(db.prepare('SELECT count(*) FROM postings_delta').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM postings_changed').pluck().get()).toBe(0);
    expect(wordPostings(db, '部署')).toBeUndefined();
    expect(postingsRebuildDue(db)).toBe(true);
    build();
    expect(expectSameAsVocab()).toBeGreaterThan(1000);

    write(99_999, { summary: '', tags: '', cues: '', body: Array(70_000).fill('咖啡').join(' ') });
    build();
    expect(db.prepare("SELECT docs FROM word_postings WHERE term = '咖啡'").pluck().get()).toBeNull();
    expect(wordPostings(db, '咖啡')).toBeUndefined();
    expect(wordPostings(db, '部署')).toBeDefined();
  });

  it('keep each character of their ranges whole in FTS5: every pair of neighbours is one indexed word', () => {
    const words = new Set<string>();
    const texts: string[] = [];
    for (const [first, last] of POSTINGS_RANGES) {
      for (let start = first; start <= last; start += 500) {
        const chars: string[] = [];
        for (let code = start; code <= Math.min(last, start + 500); code += 1) chars.push(String.fromCharCode(code));
        texts.push(segmentForIndex(chars.join('')));
        for (let i = 0; i + 1 < chars.length; i += 1) words.add(chars[i]! + chars[i + 1]!);
      }
    }
    const insert = db.prepare('INSERT INTO memories_fts (rowid, summary, tags, cues, body) VALUES (?, ?, ?, ?, ?)');
    texts.forEach((text, i) => insert.run(i + 1, '', '', '', text));
    const indexed = new Set(
      (db.prepare('SELECT DISTINCT term FROM memories_vocab').pluck().all() as string[]).filter((term) => term.length === 2),
    );
    const missing = [...words].filter((word) => !indexed.has(word));
    expect(missing.slice(0, 5)).toEqual([]);
    expect(words.size).toBeGreaterThan(30_000);
  });
});
