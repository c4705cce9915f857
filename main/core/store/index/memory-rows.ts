import type Database from 'better-sqlite3';
import type { MemoryCategory, MemoryType, StoredMemory } from '../../../../common/memory.js';
import { memoryExpiryTime } from '../memory/memory-expiry.js';
import { projectFieldsOf } from '../projects/memory-project.js';
import { segmentForIndex } from './cjk-segmenter.js';
import { clearRankPages, clearRankSlot, writeRankSlot } from './rank-pages.js';
import { statement } from './statement-cache.js';
import { clearPostings, logPostingsChange } from './word-postings-upkeep.js';

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
  /** The absolute project folders the memory names, one per line; '' for none (issue 12, recall-project.ts). */
  projects: string;
  /** 1 when it holds in those projects only. */
  project_specific: 0 | 1;
}

export interface SearchText {
  summary: string;
  tags: string;
  cues: string;
  body: string;
}

const BODY_PREVIEW_CHARS = 200;

export function toMemoryRow(memory: StoredMemory, relPath: string, file: { mtimeMs: number; size: number }): MemoryRow {
  const project = projectFieldsOf(memory.extra);
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
    projects: project.projects.join('\n'),
    project_specific: project.specific ? 1 : 0,
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
  'projects',
  'project_specific',
] as const satisfies readonly (keyof MemoryRow)[];

const STORED_COLUMNS = [...COLUMNS, 'search_hash'];
const INSERT_SQL = `INSERT INTO memories (${STORED_COLUMNS.join(', ')}) VALUES (${STORED_COLUMNS.map((c) => `@${c}`).join(', ')})`;
const UPDATE_SQL = `UPDATE memories SET ${STORED_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE rowid = @rowid`;
const HASH_SQL = 'SELECT search_hash FROM memories WHERE rowid = ?';
const RANK_SQL = 'INSERT OR REPLACE INTO memory_rank (rowid, role, memory_type, priority, expires_ms) VALUES (?, ?, ?, ?, ?)';
const INSERT_FTS_SQL = 'INSERT INTO memories_fts (rowid, summary, tags, cues, body) VALUES (?, ?, ?, ?, ?)';
const DELETE_FTS_SQL = 'DELETE FROM memories_fts WHERE rowid = ?';

/**
 * A 53-bit hash of the search text (cyrb53: two 32-bit lanes with Math.imul), to tell a rewrite
 * that changed only counts from one that changed what is searched. Not node:crypto: this runs
 * for every file of a reindex and sits in the bundle of the recall without the daemon, whose
 * start-up a crypto load would add to. A collision (odds about 2⁻⁵³ per rewrite) would keep the
 * old search text until the file's next change; `memory reindex` rebuilds it regardless.
 */
export function searchTextHash(text: SearchText): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const part of [text.summary, text.tags, text.cues, text.body]) {
    for (let i = 0; i <= part.length; i++) {
      // The separator (index == length) keeps "ab"+"c" apart from "a"+"bc".
      const code = i < part.length ? part.charCodeAt(i) : 0x1f;
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * Insert or replace one memory. `existingRowid` is the row the same path already has (the
 * caller knows it from its folder diff, which saves a lookup per file during a rebuild).
 *
 * A replaced row keeps its full-text entry when its search text is unchanged (a recall's
 * write-back changes only hits, strength and last_replayed): re-tokenizing costs time, and
 * FTS5's contentless delete leaves the table's statistics counting the old entry, so every
 * delete-and-reinsert of the same text raised later bm25 scores (0.37 → 1.02 over three).
 */
export function writeMemoryRow(db: Database.Database, row: MemoryRow, text: SearchText, existingRowid: number | undefined): number {
  const search_hash = searchTextHash(text);
  let rowid: number;
  let textChanged = true;
  if (existingRowid === undefined) {
    rowid = Number(statement(db, INSERT_SQL).run({ ...row, search_hash }).lastInsertRowid);
  } else {
    rowid = existingRowid;
    textChanged = statement(db, HASH_SQL).pluck().get(rowid) !== search_hash;
    statement(db, UPDATE_SQL).run({ ...row, search_hash, rowid });
    if (textChanged) statement(db, DELETE_FTS_SQL).run(rowid);
  }
  // A session grant lapses with the local day it was granted in (MEM-8, grant-scope.ts).
  const expires_ms = memoryExpiryTime(row)?.getTime() ?? null;
  statement(db, RANK_SQL).run(rowid, row.role, row.memory_type, row.priority, expires_ms);
  if (textChanged) statement(db, INSERT_FTS_SQL).run(rowid, text.summary, text.tags, text.cues, text.body);
  // After the full-text row: the slot holds its token count.
  const slotChanged = writeRankSlot(db, rowid, { role: row.role, memory_type: row.memory_type, priority: row.priority, expires_ms });
  // The word postings keep each memory's words and its slot as they were built (word-postings.ts).
  if (textChanged || slotChanged) logPostingsChange(db, rowid, text);
  return rowid;
}

export function deleteMemoryRow(db: Database.Database, rowid: number): void {
  statement(db, DELETE_FTS_SQL).run(rowid);
  logPostingsChange(db, rowid, undefined);
  statement(db, 'DELETE FROM memory_rank WHERE rowid = ?').run(rowid);
  clearRankSlot(db, rowid);
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
    clearRankPages(db);
    // Nothing left to correct: the caller builds the postings again once the rows are back.
    clearPostings(db);
    db.prepare('DELETE FROM memories').run();
    return;
  }
  const rowids = db.prepare('SELECT rowid FROM memories WHERE role = ?').pluck().all(role) as number[];
  for (const rowid of rowids) deleteMemoryRow(db, rowid);
}
