import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { KiokuError } from '../../../../common/errors.js';
import type { Logger } from '../../platform/config/log.js';
import { LATEST_SCHEMA_VERSION, migrate, schemaVersion } from './index-schema.js';
import { sqliteAddonOptions } from './sqlite-addon.js';

/**
 * Opening the SQLite index (ARCHITECTURE.md: "never the truth; deleting it loses nothing").
 * A missing, corrupt or too-new index is thrown away and recreated empty here; the next sync
 * fills it from the memory files. The index is never a reason to ask the user to delete files.
 */
export type FreshReason = 'missing' | 'corrupt' | 'too-new';

export interface OpenedIndexDb {
  db: Database.Database;
  /** Why the database was created empty (undefined: an existing index was opened). */
  fresh: FreshReason | undefined;
}

/**
 * Connection pragmas, in one place (STYLE.md "Data layer"). One `exec` for all of them: each
 * `db.pragma()` prepares a statement of its own, half a millisecond of every CLI recall's open
 * for six (issue 17). busy_timeout: a reindex holds the write lock for seconds; other processes
 * wait rather than fail. journal_size_limit: a full reindex passes the whole index through the
 * WAL; without a limit a long-running process (the daemon) would keep that 100 MB file after
 * the checkpoint.
 */
export function applyPragmas(db: Database.Database): void {
  db.exec(
    [
      'PRAGMA journal_mode = WAL',
      'PRAGMA busy_timeout = 5000',
      'PRAGMA synchronous = NORMAL',
      'PRAGMA temp_store = MEMORY',
      'PRAGMA cache_size = -32000',
      'PRAGMA journal_size_limit = 16777216',
    ].join(';\n'),
  );
}

/**
 * The connection pragmas of a reader: no journal mode to set (the file's own, WAL, holds) and
 * nothing about writing. busy_timeout still: a reader waits while another process recovers the WAL.
 */
const READER_PRAGMAS = ['PRAGMA busy_timeout = 5000', 'PRAGMA temp_store = MEMORY', 'PRAGMA cache_size = -32000'].join(';\n');

/** SQLite's way of saying the file is not (or no longer) a usable database. */
export function isCorruptionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}

/** Another connection held the write lock for longer than busy_timeout. */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Remove the database and its WAL side files. */
export function discardIndexFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
}

function createFresh(file: string, reason: FreshReason): OpenedIndexDb {
  const db = new Database(file, sqliteAddonOptions());
  applyPragmas(db);
  migrate(db);
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('created_reason', reason);
  return { db, fresh: reason };
}

/**
 * Open an existing index: reading the pragmas and the schema touches the header and the
 * schema pages, which is where garbage bytes or a foreign file show up. Deeper damage surfaces
 * later as SQLITE_CORRUPT, which withIndexRecovery (memory-index.ts) answers the same way.
 * A full `PRAGMA quick_check` is not run here: it reads every page, hundreds of milliseconds
 * at 100k memories, on every CLI recall.
 */
function openExisting(file: string): Database.Database {
  const db = new Database(file, sqliteAddonOptions());
  try {
    applyPragmas(db);
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * An existing index opened for reading only, for a process that most likely only reads (a recall
 * without the daemon, issue 17): the last connection to close a WAL database checkpoints it and
 * deletes its -wal and -shm files, which the next process then creates again — about half a
 * millisecond of every CLI recall's open and close, for nothing written. A reader does neither.
 * Undefined when the index cannot serve as it is — missing, damaged, of another schema version —
 * and the caller opens it for writing, which repairs or migrates it.
 */
export function openIndexDbForReading(file: string): Database.Database | undefined {
  if (!fs.existsSync(file)) return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { ...sqliteAddonOptions(), readonly: true, fileMustExist: true });
    db.exec(READER_PRAGMAS);
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    if (schemaVersion(db) === LATEST_SCHEMA_VERSION) return db;
  } catch {
    // Whatever is wrong, the open for writing finds it again and says so.
  }
  db?.close();
  return undefined;
}

export function openIndexDb(file: string, logger: Logger): OpenedIndexDb {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    if (!fs.existsSync(file)) return createFresh(file, 'missing');
    let db: Database.Database;
    try {
      db = openExisting(file);
    } catch (error) {
      if (!isCorruptionError(error)) throw error;
      logger.warn('index', `index ${file} is damaged (${(error as Error).message}); rebuilding it from the memory files`);
      discardIndexFiles(file);
      return createFresh(file, 'corrupt');
    }
    const version = schemaVersion(db);
    if (version > LATEST_SCHEMA_VERSION) {
      db.close();
      logger.warn(
        'index',
        `index ${file} has schema version ${version}, newer than this Kioku's ${LATEST_SCHEMA_VERSION} (written by a newer version); rebuilding it from the memory files`,
      );
      discardIndexFiles(file);
      return createFresh(file, 'too-new');
    }
    migrate(db);
    return { db, fresh: undefined };
  } catch (error) {
    if (error instanceof KiokuError) throw error;
    throw new KiokuError('IO', `cannot open the memory index ${file}: ${(error as Error).message}`, {
      path: file,
      cause: error,
      hint: `check that ${path.dirname(file)} is writable; the index holds nothing that is not in the memory files`,
    });
  }
}
