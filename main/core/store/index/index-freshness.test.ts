import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { fixedClock } from '../../platform/config/clock.js';
import type { Logger } from '../../platform/config/log.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { applyPragmas } from './index-db.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate } from './index-schema.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { recall } from './recall.js';

let home: TempHome;
let indexFile: string;
let warnings: string[];
const clock = fixedClock('2026-03-10T12:00:00+08:00');
const logger: Logger = {
  log: () => {},
  info: () => {},
  warn: (_stage, message) => warnings.push(message),
  error: (_stage, message) => warnings.push(message),
};

beforeEach(() => {
  home = makeTempHome();
  indexFile = home.config().paths.indexFile;
  warnings = [];
  writeMemory(home.memoryHome, 'daily', { id: 'haircut', summary: '剪頭髮', body: '使用者昨天去剪了頭髮，覺得很清爽' });
  writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡' });
});
afterEach(() => home.cleanup());

function ids(index: MemoryIndex, query: string): string[] {
  return recall(index, { role: ROLE, query, clock, writeBack: false }).memories.map((m) => m.id);
}

/** Open, recall once (which fills the index) and close: an index file as a previous run left it. */
function buildIndex(): void {
  const index = openMemoryIndex(home.config().paths, logger);
  expect(ids(index, '咖啡')).toEqual(['coffee']);
  index.close();
}

function reopen(): MemoryIndex {
  return openMemoryIndex(home.config().paths, logger);
}

describe('the index rebuilds itself (never a reason to ask the user to delete files)', () => {
  it('when the file is missing', () => {
    buildIndex();
    fs.rmSync(indexFile);
    const index = reopen();
    expect(index.fresh).toBe('missing');
    expect(ids(index, '頭髮')).toEqual(['haircut']);
    index.close();
  });

  it('when the file is garbage', () => {
    buildIndex();
    fs.writeFileSync(indexFile, Buffer.from('this is not a database, just garbage bytes '.repeat(200)));
    const index = reopen();
    expect(index.fresh).toBe('corrupt');
    expect(ids(index, '頭髮')).toEqual(['haircut']);
    expect(warnings.join('\n')).toMatch(/damaged.*rebuilding it from the memory files/);
    index.close();
  });

  it('when the damage is past the header and only shows during a search', () => {
    buildIndex();
    const size = fs.statSync(indexFile).size;
    const fd = fs.openSync(indexFile, 'r+');
    fs.writeSync(fd, Buffer.alloc(size - 4096, 0x5a), 0, size - 4096, 4096);
    fs.closeSync(fd);
    const index = reopen();
    expect(index.fresh).toBeUndefined(); // page 1 still reads fine
    expect(ids(index, '頭髮')).toEqual(['haircut']);
    expect(index.fresh).toBe('corrupt');
    index.close();
  });

  it('when its schema version is newer than this code, with a log note', () => {
    buildIndex();
    const db = new Database(indexFile);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    const index = reopen();
    expect(index.fresh).toBe('too-new');
    expect(warnings.join('\n')).toMatch(
      new RegExp(`schema version ${LATEST_SCHEMA_VERSION + 1}, newer than this Kioku's ${LATEST_SCHEMA_VERSION}`),
    );
    expect(ids(index, '頭髮')).toEqual(['haircut']);
    index.close();
  });
});

describe('an index written by an earlier version', () => {
  it('is refilled from the files when migration 4 replaces the full-text table (issue 17)', () => {
    // An index at schema 3 as the previous release left it: one row, its folder recorded as
    // read (so only a migration that empties the rows makes the files be read again).
    fs.mkdirSync(path.dirname(indexFile), { recursive: true });
    const db = new Database(indexFile);
    applyPragmas(db);
    migrate(db, MIGRATIONS.slice(0, 3));
    db.prepare(
      `INSERT INTO memories (rowid, role, category, path, id, summary, tags, cues, memory_type, priority, hits, strength, expires, relevance, links, created, updated, last_replayed, mtime_ms, size, body_preview)
       VALUES (1, ?, 'interest', ?, 'coffee', '舊的摘要', '', '', 'episodic', 3, 0, 50, '', '', '', '', '', '', 0, 0, '')`,
    ).run(ROLE, `${ROLE}/interest/coffee.md`);
    db.prepare("INSERT INTO memory_rank (rowid, role, memory_type, priority, expires_ms) VALUES (1, ?, 'episodic', 3, NULL)").run(ROLE);
    db.prepare("INSERT INTO memories_fts (rowid, summary, tags, cues, body) VALUES (1, '舊的 的摘 摘要 要', '', '', '')").run();
    const folder = path.join(home.memoryHome, ROLE, 'interest');
    expect(fs.existsSync(path.join(folder, 'coffee.md'))).toBe(true);
    db.prepare("INSERT INTO folders (role, category, dir_mtime_ms) VALUES (?, 'interest', ?)").run(ROLE, fs.statSync(folder).mtimeMs);
    db.close();

    const index = reopen();
    expect(index.db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(index.db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'memories_fts'").pluck().get()).toMatch(/prefix = '1'/);
    expect(ids(index, '咖啡')).toEqual(['coffee']);
    expect(ids(index, '舊的摘要')).toEqual([]);
    // Only the loosened query finds this one (去剪了頭髮 in the body): each character a prefix term.
    expect(ids(index, '去剪頭髮')).toEqual(['haircut']);
    expect(index.db.prepare('SELECT count(*) FROM memories').pluck().get()).toBe(2);
    index.close();
  });
});

describe('stale detection: edits made outside the app', () => {
  let index: MemoryIndex;
  beforeEach(() => {
    buildIndex();
    index = reopen();
  });
  afterEach(() => index.close());

  it('picks up a file added', () => {
    writeMemory(home.memoryHome, 'inbox', { id: 'new', summary: '新買的咖啡豆' });
    expect(ids(index, '咖啡').sort()).toEqual(['coffee', 'new']);
  });

  it('picks up a file changed by an editor that saves through a rename', () => {
    const file = writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡' });
    writeFileAtomicSync(file, fs.readFileSync(file, 'utf8').replace('黑咖啡', '烏龍茶'), { durable: false });
    expect(ids(index, '咖啡')).toEqual([]);
    expect(ids(index, '烏龍茶')).toEqual(['coffee']);
  });

  it('re-reads a hit whose file was changed in place before returning it', () => {
    const file = writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡' });
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('喜歡喝黑咖啡', '不再喝咖啡了，改喝茶'));
    const [memory] = recall(index, { role: ROLE, query: '咖啡', clock, writeBack: false }).memories;
    expect(memory?.summary).toBe('不再喝咖啡了，改喝茶');
  });

  it('picks up a file removed', () => {
    fs.rmSync(writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡' }));
    expect(ids(index, '咖啡')).toEqual([]);
  });
});

describe('an index opened for reading (a recall without the daemon, issue 17)', () => {
  const forReading = () => openMemoryIndex(home.config().paths, logger, { forReading: true });

  it('stays read-only through a recall that finds nothing to write, and leaves the WAL files for the next reader', () => {
    buildIndex();
    const index = forReading();
    expect(index.readOnly).toBe(true);
    expect(ids(index, '咖啡')).toEqual(['coffee']);
    expect(index.readOnly).toBe(true);
    expect(() => index.db.prepare("INSERT INTO meta (key, value) VALUES ('x', 'y')").run()).toThrow(/readonly/);
    index.close();
    // A writer closing last checkpoints and deletes these; a reader leaves them, so the next open need not make them again.
    expect(fs.existsSync(`${indexFile}-wal`)).toBe(true);
    expect(fs.existsSync(`${indexFile}-shm`)).toBe(true);
  });

  it('opens for writing when a memory was added meanwhile, and indexes it', () => {
    buildIndex();
    const index = forReading();
    writeMemory(home.memoryHome, 'inbox', { id: 'beans', summary: '新買的咖啡豆' });
    expect(ids(index, '咖啡').sort()).toEqual(['beans', 'coffee']);
    expect(index.readOnly).toBe(false);
    index.close();
    const again = forReading();
    expect(ids(again, '咖啡').sort()).toEqual(['beans', 'coffee']);
    expect(again.readOnly).toBe(true); // indexed for good by the first
    again.close();
  });

  it('opens for writing at once an index that is missing or of another schema version', () => {
    const missing = forReading();
    expect([missing.readOnly, missing.fresh]).toEqual([false, 'missing']);
    expect(ids(missing, '頭髮')).toEqual(['haircut']);
    missing.close();
    const db = new Database(indexFile);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    const newer = forReading();
    expect([newer.readOnly, newer.fresh]).toEqual([false, 'too-new']);
    expect(ids(newer, '頭髮')).toEqual(['haircut']);
    newer.close();
  });
});
