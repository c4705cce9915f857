/**
 * The emoji mood sheet's pure parts (ROLE-10): the nine moods, the grid that cuts a 3×3 sheet
 * into them, and the limits on a sheet image. Pure and shared: main crops with sharp by these
 * rectangles, the renderer draws the same rectangles over the image and previews them with a
 * canvas, so what the user sees is what gets cut.
 */
import * as z from 'zod/mini';

/**
 * The moods, row by row (ROLE-10: happy, smile, relieved / worried, surprised, shy / crying,
 * sleepy, expectant — 開心 微笑 安心 / 擔心 驚訝 害羞 / 哭哭 想睡覺 期待 in the role skill).
 * `id` names the cropped files (ROLE-10 wants lowercase, readable file names).
 */
export const EMOJI_MOODS = [
  { id: 'happy', zh: '開心' },
  { id: 'smile', zh: '微笑' },
  { id: 'relieved', zh: '安心' },
  { id: 'worried', zh: '擔心' },
  { id: 'surprised', zh: '驚訝' },
  { id: 'shy', zh: '害羞' },
  { id: 'crying', zh: '哭哭' },
  { id: 'sleepy', zh: '想睡覺' },
  { id: 'expectant', zh: '期待' },
] as const;

export type EmojiMoodId = (typeof EMOJI_MOODS)[number]['id'];
export const EMOJI_MOOD_IDS: readonly EmojiMoodId[] = EMOJI_MOODS.map((mood) => mood.id);

/**
 * What a sheet image may be. The byte cap keeps an upload through the headless server sane (the
 * image travels as base64); the pixel caps are checked from the header before anything is
 * decoded, so a tiny file that claims 50 000 × 50 000 pixels is refused without being opened.
 */
export const EMOJI_SHEET_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  maxSide: 8192,
  maxPixels: 40_000_000,
  /** Three cells of at least 16 px each way. */
  minSide: 48,
  /** The smallest cell a grid may cut (after gutters). */
  minCell: 8,
  formats: ['png', 'jpeg', 'webp'] as const,
} as const;

export interface EmojiRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * How a 3×3 sheet is cut. `columns` are the x of the four vertical lines (left edge, the two
 * lines between columns, right edge) and `rows` the y of the four horizontal ones, in sheet
 * pixels: the outer lines are the margins, the inner ones may sit anywhere between (columns need
 * not be equal). `gutter` is the empty band centred on each inner line that belongs to no cell.
 * `cells`, when given, are nine rectangles in mood order that win over the lines: for sheets
 * whose faces do not sit on a grid (written by hand into the grid file).
 */
export interface EmojiGrid {
  columns: [number, number, number, number];
  rows: [number, number, number, number];
  gutter: { x: number; y: number };
  cells?: EmojiRect[];
}

const px = z.int().check(z.minimum(0), z.maximum(EMOJI_SHEET_LIMITS.maxSide));
const rectSchema = z.strictObject({ x: px, y: px, width: px, height: px });

/** The grid as it crosses the UI contract and sits in the grid file. */
export const emojiGridSchema = z.strictObject({
  columns: z.tuple([px, px, px, px]),
  rows: z.tuple([px, px, px, px]),
  gutter: z.strictObject({ x: px, y: px }),
  cells: z.optional(z.array(rectSchema).check(z.length(9))),
});

/** Three equal columns and rows over the whole image, no gutter (`--crop` without a grid file). */
export function defaultEmojiGrid(width: number, height: number): EmojiGrid {
  const thirds = (size: number): [number, number, number, number] => [0, Math.round(size / 3), Math.round((size * 2) / 3), size];
  return { columns: thirds(width), rows: thirds(height), gutter: { x: 0, y: 0 } };
}

/** The cell of column `index` along one axis: the band between two lines, less half a gutter inside. */
function span(lines: readonly number[], index: number, gutter: number): [number, number] {
  const start = lines[index]! + (index > 0 ? gutter / 2 : 0);
  const end = lines[index + 1]! - (index < 2 ? gutter / 2 : 0);
  return [Math.round(start), Math.round(end)];
}

/** The nine rectangles to cut, in mood order (row by row), in whole sheet pixels. */
export function emojiCellRects(grid: EmojiGrid): EmojiRect[] {
  if (grid.cells) return grid.cells.map((cell) => ({ ...cell }));
  const rects: EmojiRect[] = [];
  for (let row = 0; row < 3; row++) {
    const [top, bottom] = span(grid.rows, row, grid.gutter.y);
    for (let column = 0; column < 3; column++) {
      const [left, right] = span(grid.columns, column, grid.gutter.x);
      rects.push({ x: left, y: top, width: right - left, height: bottom - top });
    }
  }
  return rects;
}

/**
 * What is wrong with a grid for an image of this size, in words a user can act on; undefined when
 * it cuts nine cells of at least `minCell` pixels inside the image.
 */
export function emojiGridProblem(grid: EmojiGrid, width: number, height: number): string | undefined {
  const min = EMOJI_SHEET_LIMITS.minCell;
  const axes = [
    { name: 'vertical', lines: grid.columns, size: width, edge: 'width' },
    { name: 'horizontal', lines: grid.rows, size: height, edge: 'height' },
  ] as const;
  if (!grid.cells) {
    for (const axis of axes) {
      if (axis.lines[3] > axis.size)
        return `the last ${axis.name} line (${axis.lines[3]}) is outside the image (${axis.edge} ${axis.size} px)`;
      for (let i = 0; i < 3; i++) {
        if (axis.lines[i]! >= axis.lines[i + 1]!)
          return `the ${axis.name} lines must increase: line ${i + 1} is at ${axis.lines[i]}, line ${i + 2} at ${axis.lines[i + 1]}`;
      }
    }
  }
  const rects = emojiCellRects(grid);
  for (const [index, rect] of rects.entries()) {
    const mood = EMOJI_MOODS[index]!.id;
    if (rect.x + rect.width > width || rect.y + rect.height > height) {
      return `the ${mood} cell (${rect.x},${rect.y} ${rect.width}×${rect.height}) reaches outside the image (${width}×${height})`;
    }
    if (rect.width < min || rect.height < min) {
      return `the ${mood} cell would be ${Math.max(rect.width, 0)}×${Math.max(rect.height, 0)} px; each cell needs at least ${min}×${min} px (move the lines apart or make the gutter smaller)`;
    }
  }
  return undefined;
}

export type EmojiGridAxis = 'columns' | 'rows';

/**
 * Move one line to `value`, kept between its neighbours so every cell stays at least `minCell`
 * wide after the gutter, and inside the image. Per-cell rectangles are dropped: the user is
 * back to editing lines.
 */
export function moveEmojiGridLine(
  grid: EmojiGrid,
  axis: EmojiGridAxis,
  index: number,
  value: number,
  width: number,
  height: number,
): EmojiGrid {
  const lines = [...grid[axis]] as EmojiGrid['columns'];
  const size = axis === 'columns' ? width : height;
  const gutter = axis === 'columns' ? grid.gutter.x : grid.gutter.y;
  const min = EMOJI_SHEET_LIMITS.minCell;
  // An outer line has no gutter on its outer side; an inner line has half a gutter on each.
  const room = (a: number, b: number) => min + (a > 0 && a < 3 ? gutter / 2 : 0) + (b > 0 && b < 3 ? gutter / 2 : 0);
  const low = index === 0 ? 0 : lines[index - 1]! + Math.ceil(room(index - 1, index));
  const high = index === 3 ? size : lines[index + 1]! - Math.ceil(room(index, index + 1));
  lines[index] = Math.round(Math.min(Math.max(value, low), Math.max(low, high)));
  const { cells: _dropped, ...rest } = grid;
  return { ...rest, [axis]: lines };
}

/** Spread the two inner lines of each axis evenly between the outer ones (margins kept). */
export function evenEmojiGrid(grid: EmojiGrid): EmojiGrid {
  const even = (lines: readonly number[]): [number, number, number, number] => {
    const [first, , , last] = lines as [number, number, number, number];
    return [first, Math.round(first + (last - first) / 3), Math.round(first + ((last - first) * 2) / 3), last];
  };
  const { cells: _dropped, ...rest } = grid;
  return { ...rest, columns: even(grid.columns), rows: even(grid.rows) };
}
