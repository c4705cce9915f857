import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { applyPragmas } from './index-db.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate, schemaVersion } from './index-schema.js';
import { writeMemoryRow } from './memory-rows.js';
import { memoryRowFor } from '../../../../test/helpers/memory-row.js';
import { slotsFromPages } from './rank-slots.js';

function tables(db: Database.Database): string[] {
  return db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'memories_fts_%' ORDER BY name")
    .pluck()
    .all() as string[];
}

describe('index migrations', () => {
  it('numbers migrations 1, 2, 3… with no gaps, so the list can only grow', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('migration 1 creates the memories, ranking, full-text, folder, broken-file and meta tables', () => {
    const db = new Database(':memory:');
    expect(migrate(db, MIGRATIONS.slice(0, 1))).toEqual([1]);
    expect(schemaVersion(db)).toBe(1);
    expect(tables(db)).toEqual(['broken_files', 'folders', 'memories', 'memories_fts', 'memory_rank', 'meta']);

    // The full-text table is contentless with deletes: a row can be replaced and found.
    db.prepare('INSERT INTO memories_fts (rowid, summary, tags, cues, body) VALUES (1, ?, ?, ?, ?)').run('咖啡 啡', '', '', '');
    db.prepare('DELETE FROM memories_fts WHERE rowid = 1').run();
    db.prepare('INSERT INTO memories_fts (rowid, summary, tags, cues, body) VALUES (1, ?, ?, ?, ?)').run('頭髮 髮', '', '', '');
    expect(db.prepare('SELECT rowid FROM memories_fts WHERE memories_fts MATCH \'"頭髮"\'').pluck().all()).toEqual([1]);
    expect(db.prepare('SELECT rowid FROM memories_fts WHERE memories_fts MATCH \'"咖啡"\'').pluck().all()).toEqual([]);
  });

  it('migration 2 reads again as dates the expires that the old parser missed (issue 11)', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 1));
    const insert = db.prepare(
      "INSERT INTO memories (rowid, role, category, path, id, summary, tags, cues, memory_type, priority, hits, strength, expires, relevance, links, created, updated, last_replayed, mtime_ms, size, body_preview) VALUES (?, 'R', 'daily', ?, ?, '', '', '', 'episodic', 3, 0, 50, ?, '', '', '', '', '', 0, 0, '')",
    );
    const rank = db.prepare("INSERT INTO memory_rank (rowid, role, memory_type, priority, expires_ms) VALUES (?, 'R', 'episodic', 3, ?)");
    for (const [rowid, expires] of [
      [1, '2026/12/01T10:00Z'],
      [2, '本工作階段'],
      [3, ''],
    ] as const) {
      insert.run(rowid, `R/daily/${rowid}.md`, `m${rowid}`, expires);
      rank.run(rowid, null);
    }
    expect(migrate(db, MIGRATIONS.slice(0, 2))).toContain(2);
    expect(db.prepare('SELECT rowid, expires_ms FROM memory_rank ORDER BY rowid').all()).toEqual([
      { rowid: 1, expires_ms: Date.UTC(2026, 11, 1, 10) },
      { rowid: 2, expires_ms: null },
      { rowid: 3, expires_ms: null },
    ]);
  });

  it('migration 3 gives session grants (本工作階段) the end of the local day they were granted in (issue 12)', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 2));
    const insert = db.prepare(
      "INSERT INTO memories (rowid, role, category, path, id, summary, tags, cues, memory_type, priority, hits, strength, expires, relevance, links, created, updated, last_replayed, mtime_ms, size, body_preview) VALUES (?, 'R', 'important', ?, ?, '', '', '', 'preference', 5, 0, 50, ?, '', '', ?, '', '', 0, 0, '')",
    );
    const rank = db.prepare(
      "INSERT INTO memory_rank (rowid, role, memory_type, priority, expires_ms) VALUES (?, 'R', 'preference', 5, NULL)",
    );
    const rows = [
      [1, '本工作階段', '2026-04-09T10:00:00'],
      [2, '本工作階段（session s-1，2026-04-08 授權）', '2026-04-09T10:00:00'],
      [3, '這個 PR 合併後失效', '2026-04-09T10:00:00'],
    ] as const;
    for (const [rowid, expires, created] of rows) {
      insert.run(rowid, `R/important/${rowid}.md`, `m${rowid}`, expires, created);
      rank.run(rowid);
    }
    expect(migrate(db, MIGRATIONS.slice(0, 3))).toEqual([3]);
    expect(db.prepare('SELECT rowid, expires_ms FROM memory_rank ORDER BY rowid').all()).toEqual([
      { rowid: 1, expires_ms: new Date(2026, 3, 10).getTime() },
      { rowid: 2, expires_ms: new Date(2026, 3, 9).getTime() },
      { rowid: 3, expires_ms: null },
    ]);
  });

  it('migration 4 rebuilds the full-text table with a one-character prefix index and empties the rows to be read again', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 3));
    db.prepare(
      "INSERT INTO memories (rowid, role, category, path, id, summary, tags, cues, memory_type, priority, hits, strength, expires, relevance, links, created, updated, last_replayed, mtime_ms, size, body_preview) VALUES (1, 'R', 'daily', 'R/daily/1.md', 'm1', '', '', '', 'episodic', 3, 0, 50, '', '', '', '', '', '', 0, 0, '')",
    ).run();
    db.prepare("INSERT INTO memory_rank (rowid, role, memory_type, priority, expires_ms) VALUES (1, 'R', 'episodic', 3, NULL)").run();
    db.prepare("INSERT INTO memories_fts (rowid, summary, tags, cues, body) VALUES (1, '咖啡 啡', '', '', '')").run();
    db.prepare("INSERT INTO folders (role, category, dir_mtime_ms) VALUES ('R', 'daily', 1)").run();
    db.prepare(
      "INSERT INTO broken_files (path, role, category, mtime_ms, size, message) VALUES ('R/daily/x.md', 'R', 'daily', 1, 1, 'bad')",
    ).run();

    expect(migrate(db, MIGRATIONS.slice(0, 4))).toEqual([4]);
    for (const table of ['memories', 'memory_rank', 'folders', 'broken_files', 'memories_fts'])
      expect(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);
    db.prepare("INSERT INTO memories_fts (rowid, summary, tags, cues, body) VALUES (1, '咖啡 啡', '', '', '')").run();
    // The prefix index answers a one-character prefix query (the loosened query's terms).
    expect(db.prepare('SELECT rowid FROM memories_fts WHERE memories_fts MATCH \'"咖"*\'').pluck().all()).toEqual([1]);
    const ddl = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'memories_fts'").pluck().get() as string;
    expect(ddl).toMatch(/prefix = '1'/);
    expect(ddl).toMatch(/contentless_delete = 1/);
    const columns = (db.prepare('PRAGMA table_info(memories)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).toEqual(expect.arrayContaining(['projects', 'project_specific', 'search_hash']));
  });

  it('migration 7 makes the word postings tables and leaves them to migration 8, which builds them (issue 17)', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 6));
    const insert = db.prepare('INSERT INTO memories_fts (rowid, summary, tags, cues, body) VALUES (?, ?, ?, ?, ?)');
    const memory = db.prepare(
      "INSERT INTO memories (rowid, role, category, path, id, summary, tags, cues, memory_type, priority, hits, strength, expires, relevance, links, created, updated, last_replayed, mtime_ms, size, body_preview) VALUES (?, 'R', 'daily', ?, ?, '', '', '', 'episodic', 3, 0, 50, '', '', '', '', '', '', 0, 0, '')",
    );
    insert.run(4, '咖啡 啡', '', '', '喝 咖啡 啡');
    insert.run(9, '', '咖啡 啡', '', 'vitest');
    for (const rowid of [4, 9]) memory.run(rowid, `R/daily/m${rowid}.md`, `m${rowid}`);
    expect(migrate(db, MIGRATIONS.slice(0, 7))).toEqual([7]);
    expect(db.prepare('SELECT count(*) FROM word_postings').pluck().get()).toBe(0);
    // The slots as the rank pages hold them (empty here: these rows have no memory_rank row).
    expect(migrate(db)).toEqual([8]);
    const row = db.prepare("SELECT docs, freqs, slots FROM word_postings WHERE term = '咖啡'").raw().get() as [Buffer, Buffer, Buffer];
    expect([...new Int32Array(new Uint8Array(row[0]).buffer)]).toEqual([4, 9]);
    expect([...new Uint16Array(new Uint8Array(row[1]).buffer)]).toEqual([3 + 1, 2]);
    expect([...row[2]]).toEqual(Array.from({ length: 8 }, () => 0));
    expect(db.prepare("SELECT value FROM meta WHERE key = 'word_postings'").pluck().get()).toBe('ready');
    expect(db.prepare('SELECT term FROM word_postings ORDER BY term').pluck().all()).toEqual(['咖啡']);
  });

  it("migration 8 puts each memory's rank slot beside it in the postings of an index written at version 7", () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 7));
    const text = (body: string) => ({ summary: '咖啡 啡', tags: '', cues: '', body });
    db.transaction(() => {
      writeMemoryRow(db, memoryRowFor('a', { priority: 5 }), text('喝 咖啡 啡'), undefined);
      writeMemoryRow(db, memoryRowFor('b', { memory_type: 'semantic' }), text('vitest'), undefined);
    })();
    expect(migrate(db)).toEqual([8]);
    const row = db.prepare("SELECT docs, slots FROM word_postings WHERE term = '咖啡'").raw().get() as [Buffer, Buffer];
    const docs = new Int32Array(new Uint8Array(row[0]).buffer);
    expect(docs.length).toBe(2);
    expect([...row[1]]).toEqual([...slotsFromPages(db, docs)]);
    // Role code 1, and the priorities 5 and 3 in the flags' high bits.
    expect([row[1][2], row[1][6], row[1][3]! >> 4, row[1][7]! >> 4]).toEqual([1, 1, 5, 3]);
  });

  it('migration 7 leaves the postings of an index without memories to be built later (a first sync would only log)', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toContain(7);
    expect(db.prepare("SELECT count(*) FROM meta WHERE key LIKE 'word_postings%'").pluck().get()).toBe(0);
  });

  it('running the migrations again changes nothing', () => {
    const db = new Database(':memory:');
    migrate(db);
    expect(migrate(db)).toEqual([]);
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
  });

  it('opens an index at the last version while another connection holds the write lock (no transaction of its own)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-schema-'));
    const file = path.join(dir, 'index.sqlite');
    const writer = new Database(file);
    const reader = new Database(file, { timeout: 0 });
    try {
      applyPragmas(writer);
      migrate(writer);
      writer.exec('BEGIN IMMEDIATE');
      writer.exec("INSERT INTO meta (key, value) VALUES ('test', 'held')");
      reader.pragma('busy_timeout = 0');
      expect(migrate(reader)).toEqual([]);
      // Without the version read first, each migration's BEGIN IMMEDIATE met the writer's lock.
      expect(() => reader.transaction(() => undefined).immediate()).toThrow(/locked|busy/i);
      writer.exec('COMMIT');
    } finally {
      reader.close();
      writer.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sets every connection pragma in one call', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-schema-'));
    const db = new Database(path.join(dir, 'index.sqlite'));
    try {
      applyPragmas(db);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('temp_store', { simple: true })).toBe(2);
      expect(db.pragma('cache_size', { simple: true })).toBe(-32000);
      expect(db.pragma('journal_size_limit', { simple: true })).toBe(16777216);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves a database that is newer than the code untouched (index-db.ts decides what to do)', () => {
    const db = new Database(':memory:');
    db.pragma('user_version = 99');
    expect(migrate(db)).toEqual([]);
    expect(tables(db)).toEqual([]);
  });
});
