import path from 'node:path';
import sharp from 'sharp';
import { EMOJI_MOODS, emojiCellRects, type EmojiGrid, type EmojiMoodId, type EmojiRect } from '../../../../common/emoji-grid.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { cellFileName, emojiAssetsDir } from './emoji-sheet-files.js';

/** Cutting a sheet into its nine moods with sharp (main only). */

export interface CutCell {
  mood: EmojiMoodId;
  rect: EmojiRect;
  png: Buffer;
}

/**
 * The nine cells of a sheet (its file, or its PNG bytes) as PNG bytes, in mood order; nothing is written. `previewSize` shrinks each to
 * fit that many pixels (for the UI's previews); without it the cells keep the sheet's pixels.
 * The grid must already have been checked against the sheet (emojiGridProblem).
 */
export async function cutCells(sheet: string | Buffer, grid: EmojiGrid, previewSize?: number): Promise<CutCell[]> {
  const rects = emojiCellRects(grid);
  return Promise.all(
    rects.map(async (rect, index) => {
      let image = sharp(sheet).extract({ left: rect.x, top: rect.y, width: rect.width, height: rect.height });
      if (previewSize !== undefined) image = image.resize(previewSize, previewSize, { fit: 'inside', withoutEnlargement: true });
      return { mood: EMOJI_MOODS[index]!.id, rect, png: await image.png().toBuffer() };
    }),
  );
}

/** Write cut cells next to the sheet, each atomically; returns their paths in mood order. */
export function writeCells(assetsDir: string, sheetName: string, cells: CutCell[]): string[] {
  return cells.map((cell) => {
    const file = path.join(emojiAssetsDir(assetsDir), cellFileName(sheetName, cell.mood));
    writeFileAtomicSync(file, cell.png);
    return file;
  });
}

export function pngDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}
