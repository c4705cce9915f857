import { MEMORY_TYPES, type MemoryType } from '../../../../common/memory.js';
import type { MemoryTimeStats } from '../../../../common/ui-contract.js';

/**
 * The weekly chart as numbers (kept apart from the SVG so it can be tested): the last
 * `maxWeeks` weeks, each a stack of memory types in MEMORY_TYPES order, on a scale whose top is
 * a "nice" number (1, 2, 5 × 10ⁿ) so the grid lines read as round counts.
 */
export interface ChartSegment {
  type: MemoryType;
  count: number;
  /** From the bottom, in scale units (0…scaleMax). */
  from: number;
}

export interface ChartBar {
  start: string;
  total: number;
  segments: ChartSegment[];
}

export interface ChartModel {
  bars: ChartBar[];
  scaleMax: number;
  ticks: number[];
  /** Weeks left out at the start (older than the window shown). */
  hiddenWeeks: number;
}

export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

export function buildChart(weeks: MemoryTimeStats['weeks'], maxWeeks: number): ChartModel {
  const shown = weeks.slice(-maxWeeks);
  const bars = shown.map((week) => {
    let from = 0;
    const segments: ChartSegment[] = [];
    for (const type of MEMORY_TYPES) {
      const count = week.counts[type] ?? 0;
      if (count > 0) segments.push({ type, count, from });
      from += count;
    }
    return { start: week.start, total: from, segments };
  });
  const scaleMax = niceCeiling(Math.max(0, ...bars.map((bar) => bar.total)));
  // Whole-number grid lines only: a scale of 1 has no half memory.
  const ticks = scaleMax >= 4 ? [0, scaleMax / 2, scaleMax] : [0, scaleMax];
  return { bars, scaleMax, ticks, hiddenWeeks: Math.max(0, weeks.length - shown.length) };
}
