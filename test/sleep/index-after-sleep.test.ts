import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSleep } from '../../main/core/engine/sleep/run-sleep.js';
import { refreshIndexAfterSleep } from '../../main/core/engine/sleep/index-after-sleep.js';
import { openMemoryIndex } from '../../main/core/store/index/memory-index.js';
import { buildPostings, REBUILD_AFTER_CHANGED } from '../../main/core/store/index/word-postings-upkeep.js';
import { syncRole } from '../../main/core/store/index/index-sync.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { writeInbox } from './sleep-fixtures.js';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL } from '../cli/role-test-fixtures.js';

/**
 * Issue 17: a sleep leaves the index holding what it wrote, and rebuilds the word postings once
 * enough changed — the only upkeep a user without the daemon (`kioku sleep` from cron) gets.
 */
const ROLE = 'ENGINEER01';
const TEXTS = ['部署前先跑 e2e 測試', '使用者喜歡簡短的回覆', '今天一起修好了登入的錯誤，很開心', '下週要升級 Node 到 22 版'];

let home: TempHome;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-02T12:00:00+08:00' });
  fs.writeFileSync(path.join(home.roleHome, `${ROLE}.identity.md`), SPLIT_ENGINEER_IDENTITY);
  fs.writeFileSync(path.join(home.roleHome, `${ROLE}.soul.md`), SPLIT_ENGINEER_SOUL);
  TEXTS.forEach((text, i) =>
    writeInbox(home.memoryHome, { id: `m${i}`, summary: text, body: `主旨：${text}`, memory_type: 'semantic' }, ROLE),
  );
});
afterEach(() => home.cleanup());

const indexFile = () => home.config().paths.indexFile;

function readIndex<T>(read: (db: Database.Database) => T): T {
  const db = new Database(indexFile(), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function memoryFiles(): string[] {
  const dir = path.join(home.memoryHome, ROLE);
  return (
    fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      // The category folders' files: BONDS.md and DIGESTS.md beside them are not memories.
      .filter((name) => name.endsWith('.md') && name.includes(path.sep))
      .map((name) => `${ROLE}/${name.split(path.sep).join('/')}`)
      .sort()
  );
}

describe('the index after a sleep (issue 17)', () => {
  it('holds every memory file the sleep left, without a recall', async () => {
    const result = await runSleep(home.config(), { role: ROLE, reason: 'manual', force: true });
    expect(result.roles[0]!.ok).toBe(true);
    expect(result.roles[0]!.warnings).toEqual([]);
    const files = memoryFiles();
    expect(files.some((file) => !file.includes('/inbox/'))).toBe(true);
    expect(readIndex((db) => (db.prepare('SELECT path FROM memories ORDER BY path').pluck().all() as string[]).sort())).toEqual(files);
  });

  it('rebuilds the word postings when more than REBUILD_AFTER_CHANGED memories changed since they were built', async () => {
    // Built before the sleep, then as many changes as an import makes.
    const index = openMemoryIndex(home.config().paths);
    syncRole(index, ROLE);
    index.db.transaction(() => buildPostings(index.db))();
    index.db.prepare("UPDATE meta SET value = ? WHERE key = 'word_postings_changed'").run(String(REBUILD_AFTER_CHANGED + 1));
    index.db.prepare('INSERT INTO postings_changed (doc) VALUES (123456)').run();
    index.close();
    await runSleep(home.config(), { role: ROLE, reason: 'manual', force: true });
    expect(readIndex((db) => db.prepare('SELECT count(*) FROM postings_changed').pluck().get())).toBe(0);
    // Built from what the sleep wrote: a word of a consolidated memory is in the postings.
    expect(readIndex((db) => db.prepare("SELECT count(*) FROM word_postings WHERE term = '部署'").pluck().get())).toBe(1);
  });

  it('reports an index it cannot open as a warning, and leaves the sleep done', () => {
    fs.mkdirSync(indexFile(), { recursive: true });
    fs.writeFileSync(path.join(indexFile(), 'keep'), '');
    const warning = refreshIndexAfterSleep(home.config(), [ROLE]);
    expect(warning).toMatch(/index was not refreshed after the sleep/);
    expect(refreshIndexAfterSleep(home.config(), [])).toBeUndefined();
  });
});
