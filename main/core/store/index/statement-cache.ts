import type Database from 'better-sqlite3';

/**
 * Prepared statements, compiled once per connection. Keyed by the connection object, so a
 * connection replaced after corruption (memory-index.ts) gets fresh statements by itself.
 */
const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

export function statement(db: Database.Database, sql: string): Database.Statement {
  let forDb = cache.get(db);
  if (!forDb) {
    forDb = new Map();
    cache.set(db, forDb);
  }
  let prepared = forDb.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    forDb.set(sql, prepared);
  }
  return prepared;
}
