import type Database from 'better-sqlite3';
import { statement } from './statement-cache.js';

/**
 * Values read from the index and kept per connection until the index changes (issue 17): what
 * every recall reads the same way whatever its words — a role's file count (full-check.ts), the
 * rank pages (recall-term-rank.ts) — is then read once per change instead of once per recall in
 * a process that recalls again and again (the daemon, the app). A change is seen by two
 * one-row statements: PRAGMA data_version moves with other connections' commits,
 * total_changes() with this connection's own writes. Inside a read transaction both belong to
 * its snapshot, so what is kept always matches what the transaction would read.
 */
function indexVersion(db: Database.Database): string {
  const theirs = statement(db, 'PRAGMA data_version').pluck().get() as number;
  const ours = statement(db, 'SELECT total_changes()').pluck().get() as number;
  return `${theirs}:${ours}`;
}

const keptByDb = new WeakMap<Database.Database, { version: string; kept: Map<string, unknown> }>();

/**
 * The values kept under `name` for this connection, emptied whenever the index changed since
 * they were kept. The caller fills the map (a name holds values of one kind).
 */
export function keptUntilChange<T>(db: Database.Database, name: string): Map<string | number, T> {
  const version = indexVersion(db);
  let entry = keptByDb.get(db);
  if (entry?.version !== version) keptByDb.set(db, (entry = { version, kept: new Map() }));
  let values = entry.kept.get(name) as Map<string | number, T> | undefined;
  if (!values) entry.kept.set(name, (values = new Map()));
  return values;
}
