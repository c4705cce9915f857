import { describe, expect, it } from 'vitest';
import {
  EMOJI_MOODS,
  defaultEmojiGrid,
  emojiCellRects,
  emojiGridProblem,
  emojiGridSchema,
  evenEmojiGrid,
  moveEmojiGridLine,
  type EmojiGrid,
} from './emoji-grid.js';

describe('the nine moods', () => {
  it('are the seed’s, row by row', () => {
    expect(EMOJI_MOODS.map((mood) => mood.zh)).toEqual(['開心', '微笑', '安心', '擔心', '驚訝', '害羞', '哭哭', '想睡覺', '期待']);
    expect(new Set(EMOJI_MOODS.map((mood) => mood.id)).size).toBe(9);
  });
});

describe('cell geometry', () => {
  it('cuts the default grid into three equal columns and rows covering the image', () => {
    const rects = emojiCellRects(defaultEmojiGrid(300, 600));
    expect(rects[0]).toEqual({ x: 0, y: 0, width: 100, height: 200 });
    expect(rects[4]).toEqual({ x: 100, y: 200, width: 100, height: 200 });
    expect(rects[8]).toEqual({ x: 200, y: 400, width: 100, height: 200 });
  });

  it('rounds thirds of a size that does not divide by three, leaving no pixel out', () => {
    const grid = defaultEmojiGrid(100, 100);
    expect(grid.columns).toEqual([0, 33, 67, 100]);
    const rects = emojiCellRects(grid);
    expect(rects.slice(0, 3).reduce((sum, rect) => sum + rect.width, 0)).toBe(100);
  });

  it('keeps margins out and splits each gutter between its neighbours', () => {
    // 10 px margins, cells of 100, gutters of 20: lines at the gutters' centres.
    const grid: EmojiGrid = { columns: [10, 120, 240, 350], rows: [10, 120, 240, 350], gutter: { x: 20, y: 20 } };
    const rects = emojiCellRects(grid);
    expect(rects[0]).toEqual({ x: 10, y: 10, width: 100, height: 100 });
    expect(rects[1]).toEqual({ x: 130, y: 10, width: 100, height: 100 });
    expect(rects[5]).toEqual({ x: 250, y: 130, width: 100, height: 100 });
    expect(emojiGridProblem(grid, 360, 360)).toBeUndefined();
  });

  it('lets nine explicit rectangles win over the lines', () => {
    const cells = Array.from({ length: 9 }, (_, index) => ({ x: index * 10, y: 5, width: 9, height: 9 }));
    const grid: EmojiGrid = { ...defaultEmojiGrid(300, 300), cells };
    expect(emojiCellRects(grid)).toEqual(cells);
  });
});

describe('grid problems', () => {
  it('names a line outside the image, lines out of order and cells too small', () => {
    expect(emojiGridProblem({ ...defaultEmojiGrid(300, 300), columns: [0, 100, 200, 310] }, 300, 300)).toMatch(
      /outside the image.*width 300/,
    );
    expect(emojiGridProblem({ ...defaultEmojiGrid(300, 300), rows: [0, 200, 100, 300] }, 300, 300)).toMatch(/must increase/);
    expect(emojiGridProblem({ ...defaultEmojiGrid(300, 300), columns: [0, 5, 200, 300] }, 300, 300)).toMatch(
      /happy cell would be 5×100 px/,
    );
    expect(emojiGridProblem({ ...defaultEmojiGrid(300, 300), gutter: { x: 190, y: 0 } }, 300, 300)).toMatch(/at least 8×8/);
  });

  it('names the cell whose rectangle reaches outside the image', () => {
    const cells = Array.from({ length: 9 }, () => ({ x: 0, y: 0, width: 50, height: 50 }));
    cells[7] = { x: 280, y: 0, width: 50, height: 50 };
    expect(emojiGridProblem({ ...defaultEmojiGrid(300, 300), cells }, 300, 300)).toMatch(/sleepy cell .* outside/);
  });

  it('refuses non-integer or negative pixels and a wrong number of cells at the boundary', () => {
    expect(emojiGridSchema.safeParse(defaultEmojiGrid(300, 300)).success).toBe(true);
    expect(emojiGridSchema.safeParse({ ...defaultEmojiGrid(300, 300), columns: [0, 100.5, 200, 300] }).success).toBe(false);
    expect(emojiGridSchema.safeParse({ ...defaultEmojiGrid(300, 300), gutter: { x: -1, y: 0 } }).success).toBe(false);
    expect(emojiGridSchema.safeParse({ ...defaultEmojiGrid(300, 300), cells: [{ x: 0, y: 0, width: 1, height: 1 }] }).success).toBe(false);
  });
});

describe('moving lines', () => {
  const grid = defaultEmojiGrid(300, 300);

  it('moves a line and keeps the others', () => {
    const moved = moveEmojiGridLine(grid, 'columns', 1, 130, 300, 300);
    expect(moved.columns).toEqual([0, 130, 200, 300]);
    expect(moved.rows).toEqual(grid.rows);
  });

  it('stops a line before its neighbour so every cell keeps the minimum size', () => {
    expect(moveEmojiGridLine(grid, 'columns', 1, 250, 300, 300).columns[1]).toBe(192);
    expect(moveEmojiGridLine(grid, 'rows', 0, -40, 300, 300).rows[0]).toBe(0);
    expect(moveEmojiGridLine(grid, 'rows', 3, 999, 300, 300).rows[3]).toBe(300);
    const withGutter = { ...grid, gutter: { x: 20, y: 0 } };
    // Cell 2 spans line1+10 … line2-10: it needs 8 + 20 px between the two lines.
    expect(moveEmojiGridLine(withGutter, 'columns', 1, 199, 300, 300).columns[1]).toBe(172);
    expect(emojiGridProblem(moveEmojiGridLine(withGutter, 'columns', 1, 199, 300, 300), 300, 300)).toBeUndefined();
  });

  it('drops explicit cells once a line is moved, and spreads inner lines evenly', () => {
    const cells = Array.from({ length: 9 }, () => ({ x: 0, y: 0, width: 50, height: 50 }));
    expect(moveEmojiGridLine({ ...grid, cells }, 'columns', 1, 120, 300, 300).cells).toBeUndefined();
    const uneven: EmojiGrid = { columns: [30, 50, 260, 270], rows: [0, 10, 20, 300], gutter: { x: 0, y: 0 } };
    expect(evenEmojiGrid(uneven)).toEqual({ columns: [30, 110, 190, 270], rows: [0, 100, 200, 300], gutter: { x: 0, y: 0 } });
  });
});
