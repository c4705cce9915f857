import fs from 'node:fs';
import { percentile, round } from './bench-stats.js';

/**
 * The hooks bench's numbers (hooks-bench.ts): one hook's runs summed up against `node -e 0`, the
 * table of every hook and phase, and the medians of the hooks' KIOKU_TRACE marks.
 * Design notes: docs/design-notes.md, "bench/hooks-bench.ts".
 */
export type Phase = 'up' | 'hung' | 'down';
export const PHASES: readonly Phase[] = ['up', 'hung', 'down'];

export interface Sample {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Stats {
  runs: number;
  medianMs: number;
  p25Ms: number;
  p75Ms: number;
  p95Ms: number;
  minMs: number;
  /** The median over the median of `node -e 0` (the verdicts' number). */
  ratio: number;
  /**
   * Each round's run over that round's `node -e 0`, quartiles: how steady the ratio was. A machine
   * whose load drifts during a run moves both runs of a round together, and the median ratio
   * above with them; this shows by how much (session 32: a noise the verdicts cannot see alone).
   */
  roundRatio?: { p25: number; median: number; p75: number };
  badRuns: number;
}

export type HookResult = { name: string } & Record<Phase, Stats>;

/** `rounds`: `node -e 0`'s run of each round, in the same order as `samples` (one each), for `roundRatio`. */
export function summarize(samples: Sample[], baselineMs: number, bad: number, rounds?: readonly Sample[]): Stats {
  const times = samples.map((sample) => sample.ms);
  const medianMs = percentile(times, 50);
  const ratios = rounds && rounds.length === samples.length && samples.length > 0 ? times.map((ms, i) => ms / rounds[i]!.ms) : undefined;
  return {
    runs: times.length,
    medianMs: round(medianMs, 1),
    p25Ms: round(percentile(times, 25), 1),
    p75Ms: round(percentile(times, 75), 1),
    p95Ms: round(percentile(times, 95), 1),
    minMs: round(Math.min(...times), 1),
    ratio: round(medianMs / baselineMs),
    ...(ratios
      ? { roundRatio: { p25: round(percentile(ratios, 25)), median: round(percentile(ratios, 50)), p75: round(percentile(ratios, 75)) } }
      : {}),
    badRuns: bad,
  };
}

/** `; per round 1.27× (quartiles 1.22–1.33×)`, or '' without round ratios. */
export function roundRatioNote(stats: Stats): string {
  const r = stats.roundRatio;
  return r ? `; per round ${r.median.toFixed(2)}× (quartiles ${r.p25.toFixed(2)}–${r.p75.toFixed(2)}×)` : '';
}

/** `node -e 0`'s runs summed up: its median is what the rows it goes with are divided by. */
export function baselineOf(samples: Sample[]): Stats {
  return summarize(
    samples,
    percentile(
      samples.map((sample) => sample.ms),
      50,
    ),
    0,
  );
}

/**
 * `baselines`: `node -e 0` in each phase, which that phase's ratios are to. `floors`: the
 * floor programs' rows (hook-floors.ts), printed under `node -e 0`.
 */
export function table(baselines: Record<Phase, Stats>, results: HookResult[], floors: readonly HookResult[] = []): string {
  // "bad": runs that exited non-zero, wrote to stderr, printed the wrong thing, or (daemon up)
  // were not answered by the daemon in time and fell back to the files.
  const header = ['hook', ...PHASES.flatMap((phase) => [`${phase} median ms`, `${phase} p95`, `${phase} ×node`, `${phase} bad`])];
  const rows = [
    ['node -e 0', ...PHASES.flatMap((phase) => [String(baselines[phase].medianMs), String(baselines[phase].p95Ms), '1.00×', ''])],
    ...[...floors, ...results].map((r) => [
      r.name,
      ...PHASES.flatMap((phase) => [
        String(r[phase].medianMs),
        String(r[phase].p95Ms),
        `${r[phase].ratio.toFixed(2)}×`,
        String(r[phase].badRuns),
      ]),
    ]),
  ];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  return [header, ...rows]
    .map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
    .join('\n');
}

/**
 * Median of each KIOKU_TRACE mark (ms since the hook process started), per hook event, in time
 * order; and of each span (a duration the hook was told of: the daemon's own work on its request).
 */
export function traceMedians(file: string): Array<[string, { marks: Record<string, number>; spans: Record<string, number> }]> {
  if (!fs.existsSync(file)) return [];
  type Line = { what: string; marks: Record<string, number>; spans?: Record<string, number> };
  const by = new Map<string, Line[]>();
  for (const text of fs.readFileSync(file, 'utf8').trim().split('\n')) {
    const line = JSON.parse(text) as Line;
    by.set(line.what, [...(by.get(line.what) ?? []), line]);
  }
  const medians = (all: Array<Record<string, number>>) =>
    Object.fromEntries(
      [...new Set(all.flatMap((values) => Object.keys(values)))]
        .map(
          (name) =>
            [
              name,
              round(
                percentile(
                  all.flatMap((values) => (name in values ? [values[name]!] : [])),
                  50,
                ),
                1,
              ),
            ] as const,
        )
        .sort((a, b) => a[1] - b[1]),
    );
  return [...by].map(([what, lines]) => [
    what,
    { marks: medians(lines.map((l) => l.marks)), spans: medians(lines.map((l) => l.spans ?? {})) },
  ]);
}
