import { describe, expect, it } from 'vitest';
import { MEMORY_TYPES, type MemoryType } from '../../../../common/memory.js';
import { buildChart, niceCeiling } from './chart-model.js';

const counts = (values: Partial<Record<MemoryType, number>>) =>
  Object.fromEntries(MEMORY_TYPES.map((t) => [t, values[t] ?? 0])) as Record<MemoryType, number>;

describe('the weekly chart model', () => {
  it('rounds the scale up to 1, 2 or 5 × 10ⁿ', () => {
    expect([0, 1, 3, 7, 12, 20, 21, 499, 501].map(niceCeiling)).toEqual([1, 1, 5, 10, 20, 20, 50, 500, 1000]);
  });

  it('stacks types in MEMORY_TYPES order, skips empty ones, and keeps only the last weeks', () => {
    const weeks = [
      { start: '2026-11-09', counts: counts({ rule: 9 }) },
      { start: '2026-11-16', counts: counts({}) },
      { start: '2026-11-23', counts: counts({ episodic: 2, semantic: 1, emotional: 3 }) },
    ];
    const model = buildChart(weeks, 2);
    expect(model.hiddenWeeks).toBe(1);
    expect(model.bars.map((bar) => bar.start)).toEqual(['2026-11-16', '2026-11-23']);
    expect(model.bars[0]).toEqual({ start: '2026-11-16', total: 0, segments: [] });
    expect(model.bars[1]!.segments).toEqual([
      { type: 'semantic', count: 1, from: 0 },
      { type: 'episodic', count: 2, from: 1 },
      { type: 'emotional', count: 3, from: 3 },
    ]);
    expect(model.scaleMax).toBe(10);
    expect(model.ticks).toEqual([0, 5, 10]);
  });
});
