import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../../bench/generate-memories.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { MEMORY_TYPES, type MemoryCategory } from '../../../../common/memory.js';
import { buildMatchQueries } from './cjk-segmenter.js';
import { syncPaths, syncRole } from './index-sync.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { rebuildRankPages } from './rank-pages.js';
import { TYPE_WEIGHTS } from './recall-boost.js';
import { searchMemories } from './recall-query.js';
import { rankWholeWords } from './recall-term-rank.js';
import { wordPostings } from './word-postings.js';
import { buildPostings } from './word-postings-upkeep.js';

const OTHER = 'OTHER01';
const WORDS = ['部署', '測試', '咖啡', '會議'];
const FILLER = '今天的事情大致如此沒有別的';
const NOW = Date.UTC(2026, 2, 10, 4);
const CATEGORIES: MemoryCategory[] = ['daily', 'interest', 'news', 'other'];

let home: TempHome;
let index: MemoryIndex;
beforeEach(() => {
  home = makeTempHome();
  index = openMemoryIndex(home.config().paths);
});
afterEach(() => {
  index.close();
  home.cleanup();
});

/** A text of filler with each chosen word a random number of times (0–3). */
function textWith(random: () => number, fillerLength: number): string {
  const parts = [FILLER.slice(0, 1 + Math.floor(random() * fillerLength))];
  for (const word of WORDS)
    for (let n = Math.floor(random() * 4 - 1); n > 0; n -= 1) parts.push(word, FILLER.slice(0, 1 + Math.floor(random() * 5)));
  return parts.join('，');
}

/** Memories of two roles, every column holding the words a different number of times. */
function writeMemories(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const files: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const expires = i % 11 === 0 ? '2026-03-01' : i % 17 === 0 ? '2026-12-31' : undefined;
    files.push(
      writeMemory(
        home.memoryHome,
        CATEGORIES[i % CATEGORIES.length]!,
        {
          id: `m${seed}-${i}`,
          summary: textWith(random, 4),
          tags: random() < 0.3 ? [WORDS[i % WORDS.length]!] : [],
          cues: random() < 0.2 ? [`${WORDS[(i + 1) % WORDS.length]}的時候`] : [],
          body: textWith(random, FILLER.length),
          memory_type: MEMORY_TYPES[i % MEMORY_TYPES.length],
          priority: 1 + (i % 5),
          ...(expires ? { expires } : {}),
        },
        i % 3 === 0 ? OTHER : ROLE,
      ),
    );
  }
  return files;
}

/** Every eligible match scored by FTS5's own bm25(), best first: what recall must return. */
function byFts5(words: string[], limit: number): Array<{ rowid: number; score: number }> {
  const match = words.map((word) => `"${word}"`).join(' AND ');
  const rows = index.db
    .prepare(
      `SELECT r.rowid, r.memory_type, r.priority, r.expires_ms, -bm25(memories_fts, 3, 2, 2, 1) AS text
       FROM memories_fts JOIN memory_rank r ON r.rowid = memories_fts.rowid
       WHERE memories_fts MATCH ? AND r.role = ?`,
    )
    .all(match, ROLE) as Array<{
    rowid: number;
    memory_type: keyof typeof TYPE_WEIGHTS;
    priority: number;
    expires_ms: number | null;
    text: number;
  }>;
  return rows
    .filter((row) => row.expires_ms === null || row.expires_ms > NOW)
    .map((row) => ({ rowid: row.rowid, score: row.text * TYPE_WEIGHTS[row.memory_type] * (1 + (row.priority - 3) * 0.05) }))
    .sort((a, b) => b.score - a.score || a.rowid - b.rowid)
    .slice(0, limit);
}

const QUERIES = [['部署'], ['測試'], ['咖啡', '會議'], ['部署', '測試', '咖啡']];

function expectSameAsFts5(): void {
  for (const words of QUERIES)
    for (const limit of [1, 5, 40]) {
      const own = rankWholeWords(index.db, ROLE, words, limit, NOW);
      expect(own, `${words.join(' ')} limit ${limit}`).toBeDefined();
      expect(own, `${words.join(' ')} limit ${limit}`).toEqual(byFts5(words, limit));
    }
}

describe('recall ranks whole words itself, exactly as FTS5 bm25 (issue 17)', () => {
  it('gives the same memories with the same scores, to the last bit, after files are added, rewritten and deleted', () => {
    const files = writeMemories(240, 1);
    syncRole(index, ROLE);
    syncRole(index, OTHER);
    expect(byFts5(['部署'], 100).length).toBeGreaterThan(20);
    expectSameAsFts5();

    // Rewrites change the text (the full-text row is replaced), deletions leave FTS5's
    // statistics counting the old rows: the own ranking must read the same statistics.
    const random = seededRandom(2);
    const changed: string[] = [];
    files.forEach((file, i) => {
      if (i % 5 === 0) {
        fs.rmSync(file);
        changed.push(file);
      } else if (i % 7 === 0) {
        fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^summary: .*$/m, `summary: ${textWith(random, 6)}`));
        changed.push(file);
      }
    });
    changed.push(...writeMemories(30, 3));
    syncPaths(index, changed, { recordFolderMtimes: false });
    expectSameAsFts5();
  });

  it('gives the same answer from the word postings, built and then corrected by the changes logged since', () => {
    const files = writeMemories(240, 11);
    syncRole(index, ROLE);
    syncRole(index, OTHER);
    index.db.transaction(() => buildPostings(index.db))();
    for (const word of WORDS) expect(wordPostings(index.db, word)?.docs.length, word).toBeGreaterThan(20);
    expect(index.db.prepare('SELECT count(*) FROM postings_changed').pluck().get()).toBe(0);
    expectSameAsFts5();

    const random = seededRandom(12);
    const changed = files.filter((_, i) => i % 4 === 1);
    changed.forEach((file, i) => {
      if (i % 2) fs.rmSync(file);
      else fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^summary: .*$/m, `summary: ${textWith(random, 6)}`));
    });
    syncPaths(index, changed, { recordFolderMtimes: false });
    expect(index.db.prepare('SELECT count(*) FROM postings_changed').pluck().get()).toBe(changed.length);
    expectSameAsFts5();

    // Re-rated memories, their words unchanged: the slots the postings were built with are
    // out of date for them, and the ranking must see their new priority and type.
    const rerated = files.filter((_, i) => i % 4 === 2);
    for (const file of rerated) {
      const text = fs.readFileSync(file, 'utf8');
      const priority = Number(/^priority: (\d)$/m.exec(text)![1]);
      fs.writeFileSync(
        file,
        text
          .replace(/^priority: \d$/m, `priority: ${6 - priority}`)
          .replace(/^memory_type: .*$/m, `memory_type: ${MEMORY_TYPES[priority % MEMORY_TYPES.length]}`),
      );
    }
    syncPaths(index, rerated, { recordFolderMtimes: false });
    expect(index.db.prepare('SELECT count(*) FROM postings_changed').pluck().get()).toBe(changed.length + rerated.length);
    expectSameAsFts5();
  });

  it('ranks the same in JavaScript where Node has no WebAssembly (--jitless)', async () => {
    writeMemories(240, 21);
    syncRole(index, ROLE);
    syncRole(index, OTHER);
    index.db.transaction(() => buildPostings(index.db))();
    vi.stubGlobal('WebAssembly', undefined);
    vi.resetModules();
    try {
      const fresh = await import('./recall-term-rank.js');
      for (const words of QUERIES)
        for (const limit of [1, 5, 40]) expect(fresh.rankWholeWords(index.db, ROLE, words, limit, NOW)).toEqual(byFts5(words, limit));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps the rank pages equal to a rebuild from memory_rank', () => {
    const files = writeMemories(120, 4);
    syncRole(index, ROLE);
    syncRole(index, OTHER);
    const gone = files.filter((_, i) => i % 4 === 0);
    for (const file of gone) fs.rmSync(file);
    syncPaths(index, gone, { recordFolderMtimes: false });
    const pages = () => index.db.prepare('SELECT page, slots FROM rank_pages ORDER BY page').raw().all();
    const kept = pages();
    expect(kept.length).toBeGreaterThan(0);
    rebuildRankPages(index.db);
    expect(pages()).toEqual(kept);
  });

  it('reads the rank pages again once another process changed the index (they are kept between recalls)', () => {
    const files = writeMemories(120, 9);
    syncRole(index, ROLE);
    syncRole(index, OTHER);
    expectSameAsFts5(); // the pages are now kept by this connection
    // Another connection (the daemon, a CLI recall) rewrites priorities and types: slots change.
    files.forEach((file, i) => {
      if (i % 3 !== 1) return;
      const text = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(
        file,
        text.replace(/^priority: \d$/m, `priority: ${1 + ((i + 2) % 5)}`).replace(/^memory_type: .*$/m, 'memory_type: rule'),
      );
    });
    const other = openMemoryIndex(home.config().paths);
    try {
      syncPaths(other, files, { recordFolderMtimes: false });
    } finally {
      other.close();
    }
    expectSameAsFts5();
  });

  it('leaves a query to the SQL ranking when a match has no slot, with the same answer', () => {
    writeMemories(60, 5);
    syncRole(index, ROLE);
    const queries = buildMatchQueries('部署')!;
    expect(queries.words).toEqual(['部署']);
    const before = searchMemories(index.db, ROLE, queries, 5, NOW);
    index.db.prepare('DELETE FROM rank_pages').run();
    expect(rankWholeWords(index.db, ROLE, ['部署'], 5, NOW)).toBeUndefined();
    expect(searchMemories(index.db, ROLE, queries, 5, NOW)).toEqual(before);
    expect(before.length).toBe(5);
  });

  it('leaves a memory too long for its slot (65,535 tokens or more) to the SQL ranking, which still finds it', () => {
    writeMemories(20, 7);
    writeMemory(home.memoryHome, 'other', { id: 'long', summary: '很長的部署紀錄', body: '長'.repeat(70_000) });
    syncRole(index, ROLE);
    expect(rankWholeWords(index.db, ROLE, ['部署'], 5, NOW)).toBeUndefined();
    const found = searchMemories(index.db, ROLE, buildMatchQueries('部署')!, 50, NOW).map((row) => row.id);
    expect(found).toContain('long');
    expect(found.length).toBe(byFts5(['部署'], 50).length);
  });

  it('reads every statement of a search in one snapshot, so a writer between them cannot split it', () => {
    writeMemories(120, 8);
    writeMemory(home.memoryHome, 'daily', { id: 'flow', summary: '部署流程', body: '今天的部署流程很順' });
    syncRole(index, ROLE);
    const real = index.db;
    const seen: boolean[] = [];
    // The same connection, each statement recording whether it ran inside a transaction.
    const watched = new Proxy(real, {
      get(target, key) {
        if (key !== 'prepare') return Reflect.get(target, key, target) as unknown;
        return (sql: string) => {
          const prepared = target.prepare(sql);
          for (const method of ['get', 'all'] as const) {
            const run = prepared[method].bind(prepared) as (...args: unknown[]) => unknown;
            (prepared as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
              seen.push(target.inTransaction);
              return run(...args);
            };
          }
          return prepared;
        };
      },
    });
    for (const query of ['部署', '部署流程'])
      expect(searchMemories(watched, ROLE, buildMatchQueries(query)!, 5, NOW).length).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.every(Boolean)).toBe(true);
    expect(real.inTransaction).toBe(false);
  });

  it('returns nothing for a role with no memories, and leaves out expired ones', () => {
    writeMemories(60, 6);
    syncRole(index, ROLE);
    expect(rankWholeWords(index.db, 'NOBODY01', ['部署'], 5, NOW)).toEqual([]);
    const all = rankWholeWords(index.db, ROLE, ['部署'], 100, NOW)!;
    const expiredRows = index.db.prepare('SELECT rowid FROM memory_rank WHERE expires_ms <= ?').pluck().all(NOW) as number[];
    expect(expiredRows.length).toBeGreaterThan(0);
    expect(all.filter((row) => expiredRows.includes(row.rowid))).toEqual([]);
  });
});

describe('buildMatchQueries words', () => {
  it('lists the words only when each is one two-character CJK run', () => {
    expect(buildMatchQueries('部署 測試')?.words).toEqual(['部署', '測試']);
    expect(buildMatchQueries('部署流程')?.words).toBeUndefined();
    expect(buildMatchQueries('部署 Python')?.words).toBeUndefined();
    expect(buildMatchQueries('部')?.words).toBeUndefined();
  });
});
