import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/config/clock.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { recall, type RecallOptions } from './recall.js';
import { TYPE_WEIGHTS } from './recall-boost.js';

let home: TempHome;
let index: MemoryIndex;
// Noon on 2026-03-10 in the zone the test runs in (a bare expires date is a local day).
const clock = fixedClock(new Date(2026, 2, 10, 12, 0));

beforeEach(() => {
  home = makeTempHome();
  index = openMemoryIndex(home.config().paths);
});
afterEach(() => {
  index.close();
  home.cleanup();
});

function ids(query: string, options: Partial<RecallOptions> = {}): string[] {
  return recall(index, { role: ROLE, query, clock, writeBack: false, ...options }).memories.map((m) => m.id);
}

describe('recall: Chinese without spaces (X-SEARCH)', () => {
  beforeEach(() => {
    writeMemory(home.memoryHome, 'daily', { id: 'haircut', summary: '近況', body: '使用者昨天去剪了頭髮，覺得很清爽' });
    writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '飲料偏好', body: '喜歡喝黑咖啡，不加糖' });
    writeMemory(home.memoryHome, 'skill', { id: 'python', summary: '用 Python 寫爬蟲', tags: ['程式'] });
    writeMemory(home.memoryHome, 'inbox', { id: 'meeting', summary: '週五下午的會議改到三點', cues: ['開會'] });
  });

  it('finds a 2-character word inside a sentence', () => {
    expect(ids('頭髮')).toEqual(['haircut']);
    expect(ids('咖啡')).toEqual(['coffee']);
  });

  it('finds a 3-character phrase, also with a particle in between (剪頭髮 → 剪了頭髮)', () => {
    expect(ids('剪頭髮')).toEqual(['haircut']);
    expect(ids('黑咖啡')).toEqual(['coffee']);
    expect(ids('去剪了頭髮')).toEqual(['haircut']);
    expect(ids('剪咖啡')).toEqual([]); // the characters are in different memories
  });

  it('ranks the exact phrase above the same characters apart', () => {
    writeMemory(home.memoryHome, 'daily', { id: 'exact', summary: '近況', body: '今天去剪頭髮' });
    expect(ids('剪頭髮')).toEqual(['exact', 'haircut']);
  });

  it('finds words given apart, in any order', () => {
    expect(ids('頭髮 剪')).toEqual(['haircut']);
    expect(ids('清爽 頭髮')).toEqual(['haircut']);
  });

  it('finds a 1-character query, also at the end of a word', () => {
    expect(ids('髮')).toEqual(['haircut']);
    expect(ids('糖')).toEqual(['coffee']);
  });

  it('matches mixed English and Chinese, English by prefix and in any case', () => {
    expect(ids('python 爬蟲')).toEqual(['python']);
    expect(ids('PYTH')).toEqual(['python']);
    expect(ids('Python寫')).toEqual(['python']);
  });

  it('searches tags and cues, and the inbox', () => {
    expect(ids('程式')).toEqual(['python']);
    expect(ids('開會')).toEqual(['meeting']);
  });

  it('never throws on FTS5 syntax in the query, and matches it literally', () => {
    for (const query of ['"', '頭髮"', '*', 'OR', '頭髮 OR 咖啡', 'NEAR(頭髮 咖啡)', 'summary:頭髮', '-頭髮', '(頭髮', '頭髮 AND', '^頭']) {
      expect(() => ids(query), query).not.toThrow();
    }
    expect(ids('頭髮 OR 咖啡')).toEqual([]); // "or" is a word to find here, not an operator
    expect(ids('(頭髮)')).toEqual(['haircut']);
  });

  it('returns nothing for a query with nothing searchable in it', () => {
    expect(ids('')).toEqual([]);
    expect(ids(' ，。？ ')).toEqual([]);
  });

  it('returns the shape of CLI.md with absolute paths', () => {
    const [memory] = recall(index, { role: ROLE, query: '頭髮', clock, writeBack: false }).memories;
    expect(memory).toMatchObject({ id: 'haircut', summary: '近況', category: 'daily', memory_type: 'episodic', priority: 3 });
    expect(memory!.path).toBe(`${home.memoryHome}/${ROLE}/daily/haircut.md`);
    expect(memory!.score).toBeGreaterThan(0);
  });

  it('rejects a role ID that is not valid before touching anything', () => {
    expect(() => ids('頭髮', { role: '../x' })).toThrow(/role ID/);
  });
});

describe('recall: ranking, expiry and limit (MEM-4, MEM-8)', () => {
  it('prefers rule, preference and procedural memories at an equal text match', () => {
    for (const [id, memory_type] of [
      ['a-episodic', 'episodic'],
      ['b-rule', 'rule'],
      ['c-semantic', 'semantic'],
      ['d-preference', 'preference'],
      ['e-procedural', 'procedural'],
    ]) {
      writeMemory(home.memoryHome, 'other', { id: id!, summary: '提交前先跑測試', memory_type });
    }
    const ranked = ids('測試', { limit: 5 });
    expect(ranked.slice(0, 3).sort()).toEqual(['b-rule', 'd-preference', 'e-procedural']);
    expect(ranked.slice(3).sort()).toEqual(['a-episodic', 'c-semantic']);
  });

  it('gives a higher priority a small boost, and a better text match still wins over priority', () => {
    writeMemory(home.memoryHome, 'other', { id: 'low', summary: '咖啡豆', priority: 1 });
    writeMemory(home.memoryHome, 'other', { id: 'high', summary: '咖啡豆', priority: 5 });
    writeMemory(home.memoryHome, 'other', { id: 'body-only', summary: '採買', body: `清單很長${'。'.repeat(50)}還有咖啡豆`, priority: 5 });
    expect(ids('咖啡豆')).toEqual(['high', 'low', 'body-only']);
  });

  it('leaves out memories whose expires date has passed, keeps future dates and condition texts', () => {
    writeMemory(home.memoryHome, 'daily', { id: 'past', summary: '暫時允許直接推送', expires: '2026-03-09' });
    writeMemory(home.memoryHome, 'daily', { id: 'today', summary: '暫時允許直接推送', expires: '2026-03-10' });
    writeMemory(home.memoryHome, 'daily', { id: 'future', summary: '暫時允許直接推送', expires: '2026-04-01T00:00:00+08:00' });
    writeMemory(home.memoryHome, 'daily', { id: 'condition', summary: '暫時允許直接推送', expires: '這個 PR 合併前' });
    expect(ids('直接推送', { limit: 10 }).sort()).toEqual(['condition', 'future', 'today']);
    // Half an hour into the next local day, "today" has run out (in Taipei it is still 03-10 in UTC).
    expect(ids('直接推送', { limit: 10, clock: fixedClock(new Date(2026, 2, 11, 0, 30)) }).sort()).toEqual(['condition', 'future']);
  });

  it('marks a session grant as one, and leaves it out once the local day it was granted in is over (issue 12)', () => {
    writeMemory(home.memoryHome, 'important', {
      id: 'bound',
      summary: '這次可以直接 force push',
      expires: '本工作階段（session s-1，2026-03-10 授權）',
      memory_type: 'preference',
    });
    writeMemory(home.memoryHome, 'important', {
      id: 'seed-era',
      summary: '先直接 force push',
      expires: '本工作階段',
      created: '2026-03-09T15:00:00',
      memory_type: 'preference',
    });
    const found = recall(index, { role: ROLE, query: 'force push', clock, writeBack: false, limit: 10 }).memories;
    expect(found.map((m) => m.id)).toEqual(['bound']);
    expect(found[0]!.grant).toEqual({ kind: 'session', expires: '本工作階段（session s-1，2026-03-10 授權）' });
    expect(ids('force push', { limit: 10, clock: fixedClock(new Date(2026, 2, 11, 0, 30)) })).toEqual([]);
  });

  it('returns at most `limit` memories, 5 by default', () => {
    for (let i = 0; i < 8; i += 1) writeMemory(home.memoryHome, 'news', { id: `n${i}`, summary: `第${i}則新聞：颱風` });
    expect(ids('颱風')).toHaveLength(5);
    expect(ids('颱風', { limit: 2 })).toHaveLength(2);
  });

  it('finds the rule memories even when more than a hundred equal text matches come before them', () => {
    for (let i = 0; i < 150; i += 1) {
      const id = `m${String(i).padStart(3, '0')}`;
      writeMemory(home.memoryHome, 'other', { id, summary: '每天都要喝水', memory_type: i >= 145 ? 'rule' : 'episodic' });
    }
    expect(ids('喝水').sort()).toEqual(['m145', 'm146', 'm147', 'm148', 'm149']);
  });

  it('ranks exactly as scoring every match would, when many match about equally and only boosts differ', () => {
    // Over a hundred near-equal matches: the limit-th score cannot be proven best from the text
    // candidates alone, so the best-boosted matches are scored (recall-query.ts rankMatch).
    const types = ['episodic', 'semantic', 'rule', 'preference', 'procedural', 'emotional'] as const;
    for (let i = 0; i < 260; i += 1) {
      const id = `w${String(i).padStart(3, '0')}`;
      const summary = i % 3 === 0 ? '每天都要喝水' : i % 3 === 1 ? '記得喝水，一天兩千毫升' : '喝水';
      writeMemory(home.memoryHome, 'other', {
        id,
        summary,
        memory_type: types[(i * 7) % types.length],
        priority: 1 + ((i * 11) % 5),
        ...(i % 13 === 0 ? { expires: '2026-03-01' } : {}),
      });
    }
    for (const limit of [1, 5, 20]) {
      const found = recall(index, { role: ROLE, query: '喝水', clock, writeBack: false, limit }).memories;
      const weight = (type: string) => TYPE_WEIGHTS[type as keyof typeof TYPE_WEIGHTS];
      // Every match scored, written out here independently of recall-query.ts's SQL.
      const all = index.db
        .prepare(
          `SELECT m.id, m.memory_type, m.priority, m.rowid, r.expires_ms, -bm25(memories_fts, 3, 2, 2, 1) AS text
           FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid JOIN memory_rank r ON r.rowid = m.rowid
           WHERE memories_fts MATCH '"喝水"' AND m.role = ?`,
        )
        .all(ROLE) as Array<{ id: string; memory_type: string; priority: number; rowid: number; expires_ms: number | null; text: number }>;
      const expected = all
        .filter((row) => row.expires_ms === null || row.expires_ms > clock.now().getTime())
        .map((row) => ({ ...row, score: row.text * weight(row.memory_type) * (1 + (row.priority - 3) * 0.05) }))
        .sort((a, b) => b.score - a.score || a.rowid - b.rowid)
        .slice(0, limit);
      expect(found.map((m) => m.id)).toEqual(expected.map((row) => row.id));
    }
  });

  it("finds a role's best matches when other roles hold most of the matches", () => {
    for (let i = 0; i < 120; i += 1) writeMemory(home.memoryHome, 'other', { id: `h${i}`, summary: '喝水' }, 'HELPER01');
    for (let i = 0; i < 8; i += 1)
      writeMemory(home.memoryHome, 'other', { id: `e${i}`, summary: '提醒自己多喝水，還有其他很多事情', priority: i === 7 ? 5 : 3 });
    recall(index, { role: 'HELPER01', query: '喝水', clock, writeBack: false }); // index the other role too
    const mine = ids('喝水');
    expect(mine).toHaveLength(5);
    expect(mine[0]).toBe('e7');
    expect(mine.every((id) => id.startsWith('e'))).toBe(true);
  });

  it('only searches the given role (PRIV-4)', () => {
    writeMemory(home.memoryHome, 'daily', { id: 'mine', summary: '喝咖啡' });
    writeMemory(home.memoryHome, 'daily', { id: 'theirs', summary: '喝咖啡' }, 'HELPER01');
    expect(ids('咖啡')).toEqual(['mine']);
    expect(ids('咖啡', { role: 'HELPER01' })).toEqual(['theirs']);
  });
});
