import type Database from 'better-sqlite3';
import type { MemoryCategory, MemoryType, StoredMemory } from '../../../../common/memory.js';
import { memoryExpiryTime } from '../memory/memory-expiry.js';
import { segmentForIndex } from './cjk-segmenter.js';
import { statement } from './statement-cache.js';

/** One memory as the index stores it (the `memories` table), plus its segmented search text. */
export interface MemoryRow {
  role: string;
  category: MemoryCategory;
  /** Relative to the memory home, `/`-separated. */
  path: string;
  id: string;
  summary: string;
  tags: string;
  cues: string;
  memory_type: MemoryType;
  priority: number;
  hits: number;
  strength: number;
  expires: string;
  relevance: string;
  links: string;
  created: string;
  updated: string;
  last_replayed: string;
  mtime_ms: number;
  size: number;
  body_preview: string;
}

export interface SearchText {
  summary: string;
  tags: string;
  cues: string;
  body: string;
}

const BODY_PREVIEW_CHARS = 200;

export function toMemoryRow(memory: StoredMemory, relPath: string, file: { mtimeMs: number; size: number }): MemoryRow {
  return {
    role: memory.role,
    category: memory.category,
    path: relPath,
    id: memory.id,
    summary: memory.summary,
    tags: memory.tags.join(', '),
    cues: memory.cues.join(', '),
    memory_type: memory.memory_type,
    priority: memory.priority,
    hits: memory.hits,
    strength: memory.strength,
    expires: memory.expires,
    relevance: memory.relevance.join(', '),
    links: memory.links.join(', '),
    created: memory.created,
    updated: memory.updated,
    last_replayed: memory.last_replayed,
    mtime_ms: file.mtimeMs,
    size: file.size,
    body_preview: memory.body.slice(0, BODY_PREVIEW_CHARS),
  };
}

export function toSearchText(memory: StoredMemory): SearchText {
  return {
    summary: segmentForIndex(memory.summary),
    tags: segmentForIndex(memory.tags.join(' ')),
    cues: segmentForIndex(memory.cues.join(' ')),
    body: segmentForIndex(memory.body),
  };
}

const COLUMNS = [
  'role',
  'category',
  'path',
  'id',
  'summary',
  'tags',
  'cues',
  'memory_type',
  'priority',
  'hits',
  'strength',
  'expires',
  'relevance',
  'links',
  'created',
  'updated',
  'last_replayed',
  'mtime_ms',
  'size',
  'body_preview',
] as const satisfies readonly (keyof MemoryRow)[];

const INSERT_SQL = `INSERT INTO memories (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`;
const UPDATE_SQL = `UPDATE memories SET ${COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE rowid = @rowid`;
const RANK_SQL = 'INSERT OR REPLACE INTO memory_rank (rowid, role, memory_type, priority, expires_ms) VALUES (?, ?, ?, ?, ?)';
const INSERT_FTS_SQL = 'INSERT INTO memories_fts (rowid, summary, tags, cues, body) VALUES (?, ?, ?, ?, ?)';
const DELETE_FTS_SQL = 'DELETE FROM memories_fts WHERE rowid = ?';

/**
 * Insert or replace one memory. `existingRowid` is the row the same path already has (the
 * caller knows it from its folder diff, which saves a lookup per file during a rebuild).
 */
export function writeMemoryRow(db: Database.Database, row: MemoryRow, text: SearchText, existingRowid: number | undefined): number {
  let rowid: number;
  if (existingRowid === undefined) {
    rowid = Number(statement(db, INSERT_SQL).run(row).lastInsertRowid);
  } else {
    rowid = existingRowid;
    statement(db, UPDATE_SQL).run({ ...row, rowid });
    statement(db, DELETE_FTS_SQL).run(rowid);
  }
  // A session grant lapses with the local day it was granted in (MEM-8, grant-scope.ts).
  statement(db, RANK_SQL).run(rowid, row.role, row.memory_type, row.priority, memoryExpiryTime(row)?.getTime() ?? null);
  statement(db, INSERT_FTS_SQL).run(rowid, text.summary, text.tags, text.cues, text.body);
  return rowid;
}

export function deleteMemoryRow(db: Database.Database, rowid: number): void {
  statement(db, DELETE_FTS_SQL).run(rowid);
  statement(db, 'DELETE FROM memory_rank WHERE rowid = ?').run(rowid);
  statement(db, 'DELETE FROM memories WHERE rowid = ?').run(rowid);
}

export function rowidForPath(db: Database.Database, relPath: string): number | undefined {
  const found = statement(db, 'SELECT rowid FROM memories WHERE path = ?').get(relPath) as { rowid: number } | undefined;
  return found?.rowid;
}

/** Forget every row of one role (a role's reindex), or of all roles. */
export function clearMemoryRows(db: Database.Database, role?: string): void {
  // Deleting full-text rows one by one costs 9 s at 100k; when the role is the only one, the
  // whole table can be emptied in one step.
  const onlyRole = role !== undefined && db.prepare('SELECT 1 FROM memories WHERE role <> ? LIMIT 1').get(role) === undefined;
  if (role === undefined || onlyRole) {
    // 'delete-all' is the only way to empty a contentless FTS table in one step.
    db.prepare("INSERT INTO memories_fts (memories_fts) VALUES ('delete-all')").run();
    db.prepare('DELETE FROM memory_rank').run();
    db.prepare('DELETE FROM memories').run();
    return;
  }
  const rowids = db.prepare('SELECT rowid FROM memories WHERE role = ?').pluck().all(role) as number[];
  for (const rowid of rowids) deleteMemoryRow(db, rowid);
}
