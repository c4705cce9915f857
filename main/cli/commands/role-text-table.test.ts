import { describe, expect, it } from 'vitest';
import { displayWidth, fitCell, renderTable } from './role-text-table.js';

describe('displayWidth', () => {
  it('counts East Asian wide characters and emoji as two columns', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('小豹')).toBe(4);
    expect(displayWidth('，')).toBe(2);
    expect(displayWidth('🐆')).toBe(2);
    expect(displayWidth('🗡️')).toBe(2);
  });
});

describe('renderTable', () => {
  it('lines up columns holding CJK text', () => {
    const lines = renderTable(
      ['ID', 'name', 'x'],
      [
        ['ENGINEER01', '小豹', '1'],
        ['SILICA01', 'Silica', '2'],
      ],
    ).split('\n');
    expect(lines).toEqual(['ID          name    x', '----------  ------  -', 'ENGINEER01  小豹    1', 'SILICA01    Silica  2']);
  });

  it('cuts long cells by columns, not characters', () => {
    expect(fitCell('一二三四五六', 7)).toBe('一二三…');
    expect(displayWidth(fitCell('一二三四五六', 7))).toBeLessThanOrEqual(7);
    expect(fitCell('a\nb', 10)).toBe('a ⏎ b');
  });
});
