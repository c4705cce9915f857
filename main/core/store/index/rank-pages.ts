import type Database from 'better-sqlite3';
import { MEMORY_TYPES, type MemoryType } from '../../../../common/memory.js';
import { statement } from './statement-cache.js';

/**
 * What ranking a full-text match needs of its memory — its length in tokens, role, type,
 * priority, and whether it can expire — packed 8 bytes a memory into pages of 1024 memories
 * (issue 17). memory_rank holds the same, one row a memory; but looking up each of the 19,000
 * matches of a common word there costs a B-tree seek each, about 5 ms at 100k memories, while
 * reading their pages costs about 0.3 ms. The token count is the one FTS5's bm25() reads from
 * memories_fts_docsize for every match: most of that function's time (recall-term-rank.ts).
 *
 * Kept in the same transaction as memory_rank by memory-rows.ts; rebuilt from memory_rank
 * and the docsize table by migration 5 (index-schema.ts). A slot with role code 0 is empty.
 *
 * Slot layout, little-endian: bytes 0–3 token count, 4–5 role code (rank_roles), 6 the memory
 * type's index in MEMORY_TYPES (255: another) with bit 7 set when the memory has an expiry,
 * 7 priority (signed).
 */
export const SLOT_BYTES = 8;
export const SLOTS_PER_PAGE = 1024;
const NO_TYPE = 0x7f;
const EXPIRES_BIT = 0x80;
const MAX_ROLE_CODE = 0xffff;

export interface RankSlot {
  role: string;
  memory_type: string;
  priority: number;
  expires_ms: number | null;
}

export const pageOf = (rowid: number): number => Math.floor(rowid / SLOTS_PER_PAGE);
export const slotOffset = (rowid: number): number => (rowid % SLOTS_PER_PAGE) * SLOT_BYTES;

/** The token count FTS5 keeps for a row (all columns), from its docsize record: one varint a column. */
export function ftsTokenCount(db: Database.Database, rowid: number): number | undefined {
  const sizes = statement(db, 'SELECT sz FROM memories_fts_docsize WHERE id = ?').pluck().get(rowid) as Buffer | undefined;
  if (!sizes) return undefined;
  let total = 0;
  let value = 0;
  for (const byte of sizes) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    total += value;
    value = 0;
  }
  return total;
}

function roleCode(db: Database.Database, role: string): number | undefined {
  statement(db, 'INSERT OR IGNORE INTO rank_roles (role) VALUES (?)').run(role);
  const code = statement(db, 'SELECT code FROM rank_roles WHERE role = ?').pluck().get(role) as number;
  return code <= MAX_ROLE_CODE ? code : undefined;
}

/** The code of a role in the pages, or undefined when no memory of it was ever indexed. */
export function lookupRoleCode(db: Database.Database, role: string): number | undefined {
  return statement(db, 'SELECT code FROM rank_roles WHERE role = ?').pluck().get(role) as number | undefined;
}

function withPage(db: Database.Database, rowid: number, change: (page: Buffer, offset: number) => void): void {
  const page = pageOf(rowid);
  const stored = statement(db, 'SELECT slots FROM rank_pages WHERE page = ?').pluck().get(page) as Buffer | undefined;
  const slots = stored ?? Buffer.alloc(SLOTS_PER_PAGE * SLOT_BYTES);
  change(slots, slotOffset(rowid));
  statement(db, 'INSERT OR REPLACE INTO rank_pages (page, slots) VALUES (?, ?)').run(page, slots);
}

function fillSlot(page: Buffer, offset: number, tokens: number | undefined, code: number | undefined, slot: RankSlot): void {
  if (code === undefined || tokens === undefined) {
    page.fill(0, offset, offset + SLOT_BYTES);
    return;
  }
  const typeIndex = MEMORY_TYPES.indexOf(slot.memory_type as MemoryType);
  page.writeUInt32LE(Math.min(tokens, 0xffffffff), offset);
  page.writeUInt16LE(code, offset + 4);
  page[offset + 6] = (typeIndex < 0 ? NO_TYPE : typeIndex) | (slot.expires_ms === null ? 0 : EXPIRES_BIT);
  // Priorities are 1–5 (memory-file.ts); the clamp only keeps a stray value from wrapping.
  page.writeInt8(Math.max(-128, Math.min(127, Math.trunc(slot.priority))), offset + 7);
}

/**
 * Record a memory's slot. Without a token count (no full-text row) or past 65,535 roles the
 * slot is left empty, and a recall that meets that memory takes the SQL ranking instead.
 */
export function writeRankSlot(db: Database.Database, rowid: number, slot: RankSlot): void {
  const tokens = ftsTokenCount(db, rowid);
  const code = tokens === undefined ? undefined : roleCode(db, slot.role);
  withPage(db, rowid, (page, offset) => fillSlot(page, offset, tokens, code, slot));
}

export function clearRankSlot(db: Database.Database, rowid: number): void {
  withPage(db, rowid, (page, offset) => page.fill(0, offset, offset + SLOT_BYTES));
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
    if (!page) pages.set(pageOf(row.rowid), (page = Buffer.alloc(SLOTS_PER_PAGE * SLOT_BYTES)));
    const tokens = ftsTokenCount(db, row.rowid);
    fillSlot(page, slotOffset(row.rowid), tokens, tokens === undefined ? undefined : roleCode(db, row.role), row);
  }
  const insert = db.prepare('INSERT INTO rank_pages (page, slots) VALUES (?, ?)');
  for (const [page, slots] of pages) insert.run(page, slots);
}

// Readers of one slot at `offset` of a page, plain byte arithmetic: ranking reads 19,000 of
// them for a common word, and these stay cheaper than Buffer's checked readers.
export const slotRoleCode = (page: Uint8Array, offset: number): number => page[offset + 4]! | (page[offset + 5]! << 8);
export const slotTokens = (page: Uint8Array, offset: number): number =>
  page[offset]! + page[offset + 1]! * 0x100 + page[offset + 2]! * 0x10000 + page[offset + 3]! * 0x1000000;
/** The memory type's index in MEMORY_TYPES, or an index past its end for another type. */
export const slotTypeIndex = (page: Uint8Array, offset: number): number => page[offset + 6]! & NO_TYPE;
export const slotExpires = (page: Uint8Array, offset: number): boolean => (page[offset + 6]! & EXPIRES_BIT) !== 0;
export const slotPriority = (page: Uint8Array, offset: number): number => (page[offset + 7]! << 24) >> 24;

export interface RankSlotView {
  tokens: number;
  roleCode: number;
  memoryType: MemoryType | undefined;
  expires: boolean;
  priority: number;
}

/** One slot read back, or undefined when it is empty (tests and checks). */
export function readRankSlot(page: Uint8Array, rowid: number): RankSlotView | undefined {
  const offset = slotOffset(rowid);
  const roleCode = slotRoleCode(page, offset);
  if (roleCode === 0) return undefined;
  return {
    tokens: slotTokens(page, offset),
    roleCode,
    memoryType: MEMORY_TYPES[slotTypeIndex(page, offset)],
    expires: slotExpires(page, offset),
    priority: slotPriority(page, offset),
  };
}
