import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate, schemaVersion } from './index-schema.js';

function tables(db: Database.Database): string[] {
  return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'memories_fts_%' ORDER BY name").pluck().all() as string[];
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
    expect(db.prepare("SELECT rowid FROM memories_fts WHERE memories_fts MATCH '\"頭髮\"'").pluck().all()).toEqual([1]);
    expect(db.prepare("SELECT rowid FROM memories_fts WHERE memories_fts MATCH '\"咖啡\"'").pluck().all()).toEqual([]);
  });

  it('running the migrations again changes nothing', () => {
    const db = new Database(':memory:');
    migrate(db);
    expect(migrate(db)).toEqual([]);
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
  });

  it('leaves a database that is newer than the code untouched (index-db.ts decides what to do)', () => {
    const db = new Database(':memory:');
    db.pragma('user_version = 99');
    expect(migrate(db)).toEqual([]);
    expect(tables(db)).toEqual([]);
  });
});
