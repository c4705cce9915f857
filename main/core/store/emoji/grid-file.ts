import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { KiokuError } from '../../../../common/errors.js';
import { EMOJI_MOOD_IDS, emojiGridProblem, emojiGridSchema, type EmojiGrid } from '../../../../common/emoji-grid.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { emojiAssetsDir, gridFileName } from './emoji-sheet-files.js';

/**
 * The grid file next to a sheet (`<sheet>.grid.json`): the grid the cells were cut with, small
 * and hand-editable. A user may set per-cell rectangles here (`cells`) for a sheet whose faces
 * are not on a grid, then re-cut with `kioku role emoji-sheet <ID> <that sheet> --crop`.
 *
 *   { "version": 1, "sheet": "engineer01-emotions-sheet.png", "width": 1536, "height": 1536,
 *     "moods": ["happy", …], "columns": [0, 512, 1024, 1536], "rows": [0, 512, 1024, 1536],
 *     "gutter": { "x": 0, "y": 0 } }
 *
 * `moods` and `sheet` are there for a reader; the order of the cells is always the moods' order.
 */

const gridFileSchema = z.object({
  version: z.literal(1),
  width: z.optional(z.int()),
  height: z.optional(z.int()),
  columns: emojiGridSchema.shape.columns,
  rows: emojiGridSchema.shape.rows,
  gutter: emojiGridSchema.shape.gutter,
  cells: emojiGridSchema.shape.cells,
});

export function gridFilePath(assetsDir: string, sheetName: string): string {
  return path.join(emojiAssetsDir(assetsDir), gridFileName(sheetName));
}

/** The saved grid of a sheet; undefined when there is no grid file. Checked against the sheet's size. */
export function readGridFile(assetsDir: string, sheetName: string, size: { width: number; height: number }): EmojiGrid | undefined {
  const file = gridFilePath(assetsDir, sheetName);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const fix = `fix the file, or delete it to start again from the default 3×3 grid`;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new KiokuError('INVALID_FILE', `${file} is not valid JSON: ${(error as Error).message}`, { path: file, hint: fix });
  }
  const parsed = gridFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(file)';
    throw new KiokuError('INVALID_FILE', `${file}: ${where}: ${issue?.message ?? 'not a grid'}`, { path: file, hint: fix });
  }
  const { columns, rows, gutter, cells } = parsed.data;
  const grid: EmojiGrid = cells ? { columns, rows, gutter, cells } : { columns, rows, gutter };
  const problem = emojiGridProblem(grid, size.width, size.height);
  if (problem) throw new KiokuError('INVALID_FILE', `${file}: ${problem}`, { path: file, hint: fix });
  return grid;
}

/** Write the grid a sheet was cut with, atomically. */
export function writeGridFile(assetsDir: string, sheetName: string, grid: EmojiGrid, size: { width: number; height: number }): string {
  const file = gridFilePath(assetsDir, sheetName);
  const body = {
    version: 1,
    sheet: sheetName,
    width: size.width,
    height: size.height,
    moods: EMOJI_MOOD_IDS,
    columns: grid.columns,
    rows: grid.rows,
    gutter: grid.gutter,
    ...(grid.cells ? { cells: grid.cells } : {}),
  };
  writeFileAtomicSync(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}
