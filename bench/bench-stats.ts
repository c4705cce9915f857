import { performance } from 'node:perf_hooks';

/** Timing helpers for benches: milliseconds, nearest-rank percentiles. */
export function timeMs(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

export function percentile(samples: number[], p: number): number {
  if (!samples.length) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function round(value: number, digits = 2): number {
  return Number(value.toFixed(digits));
}
