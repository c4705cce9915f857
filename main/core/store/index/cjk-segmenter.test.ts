import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildMatchQueries, segmentForIndex } from './cjk-segmenter.js';

describe('segmentForIndex', () => {
  it('turns a CJK run into overlapping bigrams plus its last character', () => {
    expect(segmentForIndex('我喜歡咖啡')).toBe('我喜 喜歡 歡咖 咖啡 啡');
  });

  it('keeps a single CJK character and lowercases other words', () => {
    expect(segmentForIndex('用 Python 寫')).toBe('用 python 寫');
    expect(segmentForIndex('用Python寫程式')).toBe('用 python 寫程 程式 式');
  });

  it('treats punctuation as a separator and covers kana and Hangul', () => {
    expect(segmentForIndex('頭髮，清爽。')).toBe('頭髮 髮 清爽 爽');
    expect(segmentForIndex('コーヒー')).toBe('コー ーヒ ヒー ー');
    expect(segmentForIndex('커피')).toBe('커피 피');
  });
});

describe('buildMatchQueries', () => {
  it('makes a phrase of bigrams for a CJK run, a prefix term otherwise', () => {
    expect(buildMatchQueries('喜歡咖啡')?.exact).toBe('"喜歡 歡咖 咖啡"');
    expect(buildMatchQueries('頭髮')?.exact).toBe('"頭髮"');
    expect(buildMatchQueries('喜')?.exact).toBe('"喜"*');
    expect(buildMatchQueries('Python 咖啡')?.exact).toBe('"python"* AND "咖啡"');
  });

  it('adds a near query only for CJK runs of 3 or more characters', () => {
    expect(buildMatchQueries('頭髮 Python')?.near).toBeUndefined();
    expect(buildMatchQueries('剪頭髮 Python')?.near).toBe('NEAR("剪"* "頭"* "髮"*, 6) AND "python"*');
  });

  it('returns undefined when nothing can be searched', () => {
    expect(buildMatchQueries('')).toBeUndefined();
    expect(buildMatchQueries('  ，。!? "*" ')).toBeUndefined();
  });

  it('never lets FTS5 syntax through: every query is valid and matches literally', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5 (body, tokenize = 'unicode61 remove_diacritics 0')");
    db.prepare('INSERT INTO t (body) VALUES (?)').run(segmentForIndex('near or not 咖啡豆 body'));
    const hostile = [
      '"',
      'a"b',
      '咖啡"',
      '*',
      'OR',
      'a OR b',
      'NEAR(a b)',
      'body:咖啡',
      '-咖啡',
      '(咖啡',
      '^body',
      'a AND',
      'NOT 咖啡',
      '{body}: x',
      '咖啡豆")',
    ];
    for (const query of hostile) {
      const queries = buildMatchQueries(query);
      for (const match of [queries?.exact, queries?.near]) {
        if (match === undefined) continue;
        expect(() => db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(match), `${query} → ${match}`).not.toThrow();
      }
    }
    expect(db.prepare('SELECT count(*) AS n FROM t WHERE t MATCH ?').get(buildMatchQueries('NEAR 咖啡')!.exact)).toEqual({ n: 1 });
  });
});
