import type Database from 'better-sqlite3';
import { expiryTime, memoryExpiryTime } from '../memory/memory-expiry.js';
import { rebuildRankPages } from './rank-pages.js';
import { buildPostings } from './word-postings-upkeep.js';

/**
 * The index schema as a list of migrations that only grows (STYLE.md "Data layer"): migration
 * N takes a database at user_version N-1 to N. Never edit a shipped migration; add the next one.
 * The index is rebuildable, so a migration may also simply clear rows that need re-reading
 * (deleting `folders` rows makes the next sync re-read those folders).
 */
export interface Migration {
  version: number;
  description: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'memories, ranking rows, segmented full-text index, folder and broken-file bookkeeping, meta',
    up(db) {
      db.exec(`
        CREATE TABLE memories (
          rowid INTEGER PRIMARY KEY,
          role TEXT NOT NULL,
          category TEXT NOT NULL,
          -- relative to the memory home, so an index survives the home being moved
          path TEXT NOT NULL UNIQUE,
          id TEXT NOT NULL,
          summary TEXT NOT NULL,
          tags TEXT NOT NULL,
          cues TEXT NOT NULL,
          memory_type TEXT NOT NULL,
          priority INTEGER NOT NULL,
          hits INTEGER NOT NULL,
          strength INTEGER NOT NULL,
          expires TEXT NOT NULL,
          relevance TEXT NOT NULL,
          links TEXT NOT NULL,
          created TEXT NOT NULL,
          updated TEXT NOT NULL,
          last_replayed TEXT NOT NULL,
          mtime_ms REAL NOT NULL,
          size INTEGER NOT NULL,
          body_preview TEXT NOT NULL
        );
        CREATE INDEX memories_by_role_category ON memories (role, category);

        -- What ranking and filtering read for every full-text match, one narrow row per memory
        -- (same rowid). Measured at 100k memories, a query matching 9k rows took 28 ms joined
        -- to the wide memories rows and 8 ms joined to this table.
        CREATE TABLE memory_rank (
          rowid INTEGER PRIMARY KEY,
          role TEXT NOT NULL,
          memory_type TEXT NOT NULL,
          priority INTEGER NOT NULL,
          -- the end of an expires date in epoch ms; NULL when expires is empty or a condition text
          expires_ms INTEGER
        );

        -- Contentless: the segmented text is only needed to find rowids; what recall shows
        -- comes from memories. contentless_delete lets a changed file replace its row.
        CREATE VIRTUAL TABLE memories_fts USING fts5 (
          summary, tags, cues, body,
          content = '', contentless_delete = 1,
          tokenize = 'unicode61 remove_diacritics 0'
        );

        -- A category folder's mtime when it was last diffed: unchanged means nothing was added,
        -- removed or renamed into it since.
        CREATE TABLE folders (
          role TEXT NOT NULL,
          category TEXT NOT NULL,
          dir_mtime_ms REAL NOT NULL,
          PRIMARY KEY (role, category)
        );

        -- Files that could not be read as memories, so an unchanged broken file is reported
        -- without being parsed again on every sync.
        CREATE TABLE broken_files (
          path TEXT PRIMARY KEY,
          role TEXT NOT NULL,
          category TEXT NOT NULL,
          mtime_ms REAL NOT NULL,
          size INTEGER NOT NULL,
          message TEXT NOT NULL
        );

        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      `);
    },
  },
  {
    version: 2,
    description:
      "memory_rank.expires_ms again from each row's expires: dates such as 2026/12/01T10:00Z were not read as dates before (issue 11)",
    up(db) {
      // Recomputed from the text the row already holds, so unchanged files need no re-reading.
      const rows = db.prepare("SELECT rowid, expires FROM memories WHERE expires != ''").all() as Array<{ rowid: number; expires: string }>;
      const update = db.prepare('UPDATE memory_rank SET expires_ms = ? WHERE rowid = ?');
      for (const row of rows) update.run(expiryTime(row.expires)?.getTime() ?? null, row.rowid);
    },
  },
  {
    version: 3,
    description:
      'memory_rank.expires_ms for session grants (本工作階段): the end of the local day they were granted in, so recall stops returning them (issue 12)',
    up(db) {
      const rows = db.prepare("SELECT rowid, expires, created FROM memories WHERE expires != ''").all() as Array<{
        rowid: number;
        expires: string;
        created: string;
      }>;
      const update = db.prepare('UPDATE memory_rank SET expires_ms = ? WHERE rowid = ?');
      for (const row of rows) update.run(memoryExpiryTime(row)?.getTime() ?? null, row.rowid);
    },
  },
  {
    version: 4,
    description:
      "a one-character prefix index on the full text, each memory's project fields and the hash of its search text; the rows are read again from the files (issue 17)",
    up(db) {
      // FTS5 options are fixed at creation, and the table is contentless: it cannot be refilled
      // from itself. Every memory row goes too, so the next sync reads every file again (a
      // reindex: seconds at 10k memories, once) — the files are the truth.
      db.exec(`
        DROP TABLE memories_fts;
        -- prefix = '1': the loosened query of a 3+ character run (each character a prefix term,
        -- cjk-segmenter.ts near) read and merged the doclists of every bigram starting with each
        -- character, up to 200 ms at 100k memories; the prefix index answers it from one each.
        CREATE VIRTUAL TABLE memories_fts USING fts5 (
          summary, tags, cues, body,
          content = '', contentless_delete = 1,
          prefix = '1',
          tokenize = 'unicode61 remove_diacritics 0'
        );
        DELETE FROM memories;
        DELETE FROM memory_rank;
        DELETE FROM folders;
        DELETE FROM broken_files;
        -- What recall in a project orders by (recall-project.ts), so it reads no memory file:
        -- the absolute project folders, one per line, and whether the memory holds there only.
        ALTER TABLE memories ADD COLUMN projects TEXT NOT NULL DEFAULT '';
        ALTER TABLE memories ADD COLUMN project_specific INTEGER NOT NULL DEFAULT 0;
        -- memory-rows.ts searchTextHash: a rewrite that leaves the search text alone (a recall's
        -- write-back) keeps its full-text entry.
        ALTER TABLE memories ADD COLUMN search_hash TEXT NOT NULL DEFAULT '';
      `);
    },
  },
  {
    version: 5,
    description:
      "recall's own bm25 for a query of whole words (issue 17): each memory's token count, role, type, priority and expiry packed in pages, and the full-text index's instances as a table; filled from the rows the index holds, no file re-read",
    up(db) {
      db.exec(`
        -- rank-pages.ts: 8 bytes a memory, 1024 memories a page, so ranking the 19,000 matches of a
        -- common word reads about a hundred pages instead of seeking 19,000 rows.
        CREATE TABLE rank_roles (code INTEGER PRIMARY KEY, role TEXT NOT NULL UNIQUE);
        CREATE TABLE rank_pages (page INTEGER PRIMARY KEY, slots BLOB NOT NULL);
        -- Each (word, memory, column, position) of memories_fts: a word's frequency per memory
        -- without bm25()'s per-row size lookup (recall-term-rank.ts).
        CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, instance);
      `);
      rebuildRankPages(db);
    },
  },
  {
    version: 6,
    description:
      'rank pages at 4 bytes a memory and 1000 memories a page, one database page each: half the bytes a common word reads (issue 17)',
    up(db) {
      rebuildRankPages(db);
    },
  },
  {
    version: 7,
    description:
      "word postings (issue 17): each two-character CJK word's memories and frequencies as blobs, built from the full-text index, and the memories changed since with their words",
    up(db) {
      db.exec(`
        -- word-postings.ts: docs is the memories ascending (Int32, native order), freqs their
        -- weighted frequencies (Uint16); both NULL when a frequency does not fit.
        CREATE TABLE word_postings (term TEXT PRIMARY KEY, docs BLOB, freqs BLOB) WITHOUT ROWID;
        -- Memories whose full-text row was written or deleted since the postings were built, and
        -- the postings words each holds now.
        CREATE TABLE postings_changed (doc INTEGER PRIMARY KEY);
        CREATE TABLE postings_delta (
          term TEXT NOT NULL,
          doc INTEGER NOT NULL,
          freq INTEGER NOT NULL,
          PRIMARY KEY (term, doc)
        ) WITHOUT ROWID;
        CREATE INDEX postings_delta_by_doc ON postings_delta (doc);
      `);
      // Built by migration 8, which follows at once: this version's word_postings has no slots column.
    },
  },
  {
    version: 8,
    description:
      "each word's rank slots beside its memories in the word postings (issue 17): a common word's ranking reads the slots of its own memories, not every rank page",
    up(db) {
      db.exec(`
        -- rank-slots.ts: each memory's rank slot (rank-pages.ts) as at the build, 4 bytes a memory.
        ALTER TABLE word_postings ADD COLUMN slots BLOB;
      `);
      buildPostings(db);
    },
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Bring a database up to LATEST_SCHEMA_VERSION. Each step runs in its own immediate transaction
 * and re-reads user_version inside it, so two processes opening a new index at once do not both
 * run a migration. Returns the versions applied. A database newer than the code is the caller's
 * business (index-db.ts rebuilds it); here it is left untouched.
 *
 * An index already at the last version (nearly every open) is told by one read of user_version:
 * a step's immediate transaction takes the write lock, and a CLI recall took it once per
 * migration just to learn there was nothing to do — about a millisecond of every recall, and a
 * wait behind the daemon whenever it was writing (issue 17).
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const applied: number[] = [];
  const last = migrations[migrations.length - 1]?.version ?? 0;
  if (schemaVersion(db) >= last) return applied;
  for (const migration of migrations) {
    const step = db.transaction(() => {
      if (schemaVersion(db) !== migration.version - 1) return false;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
      return true;
    });
    if (step.immediate()) applied.push(migration.version);
  }
  return applied;
}
