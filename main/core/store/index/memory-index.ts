import type Database from 'better-sqlite3';
import type { KiokuPaths } from '../../platform/config/paths.js';
import { silentLogger, type Logger } from '../../platform/config/log.js';
import { discardIndexFiles, isCorruptionError, openIndexDb, openIndexDbForReading, type FreshReason } from './index-db.js';

/**
 * An open memory index for one memory home: the handle every index operation takes. `db` is
 * replaced when the file turns out to be corrupt in the middle of use (withIndexRecovery), so
 * hold on to the MemoryIndex, never to its `db`.
 */
export interface MemoryIndex {
  db: Database.Database;
  readonly file: string;
  readonly memoryHome: string;
  readonly logger: Logger;
  /** Why the index was last created empty (missing, corrupt, too new); undefined if it was reused. */
  fresh: FreshReason | undefined;
  /** Opened for reading only (`openMemoryIndex`'s `forReading`), until `writable()`. */
  readOnly: boolean;
  /**
   * Make `db` a connection that can write: a read-only one is closed and the index opened for
   * writing (repaired or migrated, as any open). Every write to the index calls it first (index-sync.ts).
   */
  writable(): void;
  close(): void;
}

/**
 * `forReading`: open an existing, current index read-only (index-db.ts `openIndexDbForReading`),
 * for a process that most likely writes nothing; its first write reopens it (`writable`). Any
 * other index is opened for writing at once.
 */
export function openMemoryIndex(
  paths: Pick<KiokuPaths, 'indexFile' | 'memoryHome'>,
  logger: Logger = silentLogger,
  options: { forReading?: boolean } = {},
): MemoryIndex {
  const reader = options.forReading ? openIndexDbForReading(paths.indexFile) : undefined;
  const opened = reader ? { db: reader, fresh: undefined } : openIndexDb(paths.indexFile, logger);
  const index: MemoryIndex = {
    db: opened.db,
    file: paths.indexFile,
    memoryHome: paths.memoryHome,
    logger,
    fresh: opened.fresh,
    readOnly: reader !== undefined,
    writable: () => {
      if (!index.readOnly) return;
      index.db.close();
      const reopened = openIndexDb(index.file, index.logger);
      index.db = reopened.db;
      index.fresh = reopened.fresh;
      index.readOnly = false;
    },
    close: () => {
      if (index.db.open) index.db.close();
    },
  };
  return index;
}

/**
 * Run an index operation; when SQLite reports the file corrupt (damage the open-time check
 * could not see), throw the file away, start an empty index and run the operation once more.
 * The operation must be one that fills what it needs from the files (sync, rebuild, recall).
 */
export function withIndexRecovery<T>(index: MemoryIndex, operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (!isCorruptionError(error)) throw error;
    index.logger.warn('index', `index ${index.file} is damaged (${(error as Error).message}); rebuilding it from the memory files`);
    index.close();
    discardIndexFiles(index.file);
    const reopened = openIndexDb(index.file, index.logger);
    index.db = reopened.db;
    index.fresh = 'corrupt';
    index.readOnly = false;
    return operation();
  }
}
