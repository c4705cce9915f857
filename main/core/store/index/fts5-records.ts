import type Database from 'better-sqlite3';
import { statement } from './statement-cache.js';

/**
 * Two records of FTS5's own storage that the own ranking needs (recall-term-rank.ts,
 * rank-pages.ts): a row's token counts (memories_fts_docsize) and the table's row count and token
 * totals (the averages record, memories_fts_data id 1). Both are FTS5 varints, the numbers bm25()
 * itself reads, so the own ranking counts exactly what it counts — deleted rows included.
 */
const DOCSIZE_SQL = 'SELECT sz FROM memories_fts_docsize WHERE id = ?';
const AVERAGES_SQL = 'SELECT block FROM memories_fts_data WHERE id = 1';

/** FTS5's varints (7 bits a byte, high bit set on all but the last byte of each). */
function varints(block: Uint8Array): number[] {
  const values: number[] = [];
  let value = 0;
  for (const byte of block) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    values.push(value);
    value = 0;
  }
  return values;
}

/** The token count FTS5 keeps for a row, all columns together; undefined when it has no row. */
export function ftsTokenCount(db: Database.Database, rowid: number): number | undefined {
  const sizes = statement(db, DOCSIZE_SQL).pluck().get(rowid) as Buffer | undefined;
  return sizes && varints(sizes).reduce((sum, size) => sum + size, 0);
}

/**
 * The row count and average row length in tokens, as fts5Bm25GetData computes them; undefined
 * when the record is missing or not `columns` totals after the row count.
 */
export function ftsTableStatistics(db: Database.Database, columns: number): { rows: number; avgdl: number } | undefined {
  const block = statement(db, AVERAGES_SQL).pluck().get() as Buffer | undefined;
  if (!block) return undefined;
  const values = varints(block);
  if (values.length !== 1 + columns || values[0]! <= 0) return undefined;
  const [rows, ...totals] = values as [number, ...number[]];
  // avgdl = (double)nToken / (double)nRow, nToken the sum of the column totals.
  return { rows, avgdl: totals.reduce((sum, total) => sum + total, 0) / rows };
}
