import type Database from 'better-sqlite3';
import { MEMORY_TYPES, type MemoryType } from '../../../../common/memory.js';
import { ftsTokenCount } from './fts5-records.js';
import { statement } from './statement-cache.js';

/**
 * What ranking a full-text match needs of its memory — its length in tokens, role, type,
 * priority, and whether it can expire — packed 4 bytes a memory into pages of 1000 memories
 * (issue 17). memory_rank holds the same, one row a memory; but looking up each of the 19,000
 * matches of a common word there costs a B-tree seek each, about 5 ms at 100k memories, while
 * reading their pages costs about 0.3 ms. The token count is the one FTS5's bm25() reads from
 * memories_fts_docsize for every match: most of that function's time (recall-term-rank.ts).
 * A page of 4000 bytes fits one 4 KB database page, so reading it follows no overflow chain.
 *
 * Kept in the same transaction as memory_rank by memory-rows.ts; rebuilt from memory_rank
 * and the docsize table by migrations 5 and 6 (index-schema.ts).
 *
 * Slot layout: bytes 0–1 token count (little-endian), 2 role code (rank_roles), 3 the memory
 * type's index in MEMORY_TYPES (bits 0–2; 7 for another type), an expiry flag (bit 3) and the
 * priority (bits 4–7). A slot with role code 0 is empty: no memory, or one these bytes cannot
 * hold (65,535 tokens or more, a priority outside 0–15, past 255 roles), which the ranking
 * then leaves to SQL.
 */
export const SLOT_BYTES = 4;
export const SLOTS_PER_PAGE = 1000;
export const PAGE_BYTES = SLOTS_PER_PAGE * SLOT_BYTES;
const OTHER_TYPE = 7;
const EXPIRES_BIT = 0x08;
const MAX_ROLE_CODE = 0xff;
const MAX_TOKENS = 0xfffe;

// The byte positions and bits of a slot.
export const SLOT_TOKENS = 0;
export const SLOT_ROLE = 2;
export const SLOT_FLAGS = 3;
export const SLOT_TYPE_MASK = 0x07;
export const SLOT_EXPIRES_BIT = EXPIRES_BIT;
export const SLOT_PRIORITY_SHIFT = 4;

export interface RankSlot {
  role: string;
  memory_type: string;
  priority: number;
  expires_ms: number | null;
}

export const pageOf = (rowid: number): number => Math.floor(rowid / SLOTS_PER_PAGE);
export const slotOffset = (rowid: number): number => (rowid % SLOTS_PER_PAGE) * SLOT_BYTES;

function roleCode(db: Database.Database, role: string): number | undefined {
  statement(db, 'INSERT OR IGNORE INTO rank_roles (role) VALUES (?)').run(role);
  const code = lookupRoleCode(db, role)!;
  return code <= MAX_ROLE_CODE ? code : undefined;
}

/** The code of a role in the pages, or undefined when no memory of it was ever indexed. */
export function lookupRoleCode(db: Database.Database, role: string): number | undefined {
  return statement(db, 'SELECT code FROM rank_roles WHERE role = ?').pluck().get(role) as number | undefined;
}

/**
 * Change one slot; true when its bytes changed. An unchanged slot writes nothing: a recall's
 * write-back rewrites its memories' rows without touching what ranking reads, and a missing page
 * reads as empty slots anyway. The word postings keep a copy of each memory's slot, so a change
 * here is one they must hear of (memory-rows.ts).
 */
function withPage(db: Database.Database, rowid: number, change: (page: Buffer, offset: number) => void): boolean {
  const page = pageOf(rowid);
  const offset = slotOffset(rowid);
  const stored = statement(db, 'SELECT slots FROM rank_pages WHERE page = ?').pluck().get(page) as Buffer | undefined;
  const slots = stored ?? Buffer.alloc(PAGE_BYTES);
  const before = slots.readUInt32LE(offset);
  change(slots, offset);
  if (slots.readUInt32LE(offset) === before) return false;
  statement(db, 'INSERT OR REPLACE INTO rank_pages (page, slots) VALUES (?, ?)').run(page, slots);
  return true;
}

function fillSlot(page: Buffer, offset: number, tokens: number | undefined, code: number | undefined, slot: RankSlot): void {
  const priority = slot.priority;
  const fits =
    code !== undefined && tokens !== undefined && tokens <= MAX_TOKENS && Number.isInteger(priority) && priority >= 0 && priority <= 15;
  if (!fits) {
    page.fill(0, offset, offset + SLOT_BYTES);
    return;
  }
  const typeIndex = MEMORY_TYPES.indexOf(slot.memory_type as MemoryType);
  page.writeUInt16LE(tokens, offset + SLOT_TOKENS);
  page[offset + SLOT_ROLE] = code;
  page[offset + SLOT_FLAGS] =
    (typeIndex < 0 ? OTHER_TYPE : typeIndex) | (slot.expires_ms === null ? 0 : EXPIRES_BIT) | (priority << SLOT_PRIORITY_SHIFT);
}

/**
 * Record a memory's slot. Without a token count (no full-text row) or past 65,535 roles the
 * slot is left empty, and a recall that meets that memory takes the SQL ranking instead.
 */
export function writeRankSlot(db: Database.Database, rowid: number, slot: RankSlot): boolean {
  const tokens = ftsTokenCount(db, rowid);
  const code = tokens === undefined ? undefined : roleCode(db, slot.role);
  return withPage(db, rowid, (page, offset) => fillSlot(page, offset, tokens, code, slot));
}

export function clearRankSlot(db: Database.Database, rowid: number): boolean {
  return withPage(db, rowid, (page, offset) => page.fill(0, offset, offset + SLOT_BYTES));
}

export function clearRankPages(db: Database.Database): void {
  db.prepare('DELETE FROM rank_pages').run();
}

/** Every slot again from memory_rank and the full-text sizes (migration 5), a page written once. */
export function rebuildRankPages(db: Database.Database): void {
  clearRankPages(db);
  const rows = db.prepare('SELECT rowid, role, memory_type, priority, expires_ms FROM memory_rank').all() as Array<
    RankSlot & { rowid: number }
  >;
  const pages = new Map<number, Buffer>();
  for (const row of rows) {
    let page = pages.get(pageOf(row.rowid));
    if (!page) pages.set(pageOf(row.rowid), (page = Buffer.alloc(PAGE_BYTES)));
    const tokens = ftsTokenCount(db, row.rowid);
    fillSlot(page, slotOffset(row.rowid), tokens, tokens === undefined ? undefined : roleCode(db, row.role), row);
  }
  const insert = db.prepare('INSERT INTO rank_pages (page, slots) VALUES (?, ?)');
  for (const [page, slots] of pages) insert.run(page, slots);
}
