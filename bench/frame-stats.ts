import type { Page } from 'playwright-core';
import { percentile, round } from './bench-stats.js';

/** What the in-page code uses of the browser (the bench compiles without the DOM's types). */
export interface PageWindow {
  requestAnimationFrame(callback: (time: number) => void): number;
  scrollBy(x: number, y: number): void;
  scrollY: number;
  document: { querySelectorAll(selector: string): { length: number } };
}

/** One scroll run in the page: rAF deltas and the main thread's work over it (CDP Performance). */
export interface ScrollRun {
  deltas: number[];
  longTasks: number[];
  taskMs: number;
  layoutMs: number;
  styleMs: number;
  scriptMs: number;
}

/**
 * Scroll the window by `step` px every animation frame for `frames` frames and record the gap
 * between frames (the rAF timestamps, which are frame start times: a frame the page could not
 * make in time shows as a gap of two or more vsync intervals), long tasks, and how long the main
 * thread spent on tasks, layout, style and script meanwhile.
 */
export async function scrollRun(page: Page, step: number, frames: number): Promise<ScrollRun> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const before = await metric();
  const run = await page.evaluate(
    ({ step, frames }) =>
      new Promise<{ deltas: number[]; longTasks: number[] }>((resolve) => {
        const deltas: number[] = [];
        const longTasks: number[] = [];
        const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((entry) => entry.duration)));
        observer.observe({ type: 'longtask' as never });
        const w = globalThis as unknown as PageWindow;
        let last: number | undefined;
        let count = 0;
        const tick = (time: number) => {
          if (last !== undefined) deltas.push(time - last);
          last = time;
          if (count++ >= frames) {
            observer.disconnect();
            resolve({ deltas, longTasks });
            return;
          }
          w.scrollBy(0, step);
          w.requestAnimationFrame(tick);
        };
        w.requestAnimationFrame(tick);
      }),
    { step, frames },
  );
  const after = await metric();
  await cdp.detach();
  const spent = (name: string) => round(((after[name] ?? 0) - (before[name] ?? 0)) * 1000, 1);
  return {
    ...run,
    taskMs: spent('TaskDuration'),
    layoutMs: spent('LayoutDuration'),
    styleMs: spent('RecalcStyleDuration'),
    scriptMs: spent('ScriptDuration'),
  };
}

/**
 * The page's clock is coarsened to 0.1 ms, so an on-time 60 Hz frame reads 16.6–16.8 ms: a gap
 * counts as over 16.7 ms (a vsync missed) only beyond this slack. (Every gap is a whole number of
 * vsyncs; the histogram in the results file shows nothing between 17.5 and 33 ms.)
 */
const CLOCK_SLACK_MS = 0.8;

/** Median, p95 and max frame time, and frames over one (16.7 ms) and two (33 ms) vsync intervals. */
export function frameFigures(run: ScrollRun) {
  const { deltas } = run;
  const over = (ms: number) => deltas.filter((delta) => delta > ms).length;
  return {
    frames: deltas.length,
    medianMs: round(percentile(deltas, 50)),
    p95Ms: round(percentile(deltas, 95)),
    maxMs: round(Math.max(...deltas)),
    over16_7: over(16.7 + CLOCK_SLACK_MS),
    over33: over(33),
    /** How many gaps fell in each band (ms), for the results file. */
    histogram: Object.fromEntries(
      [
        ['≤16.7', 0, 16.7],
        ['16.7–17.5', 16.7, 17.5],
        ['17.5–25', 17.5, 25],
        ['25–33', 25, 33],
        ['33–50', 33, 50],
        ['>50', 50, Infinity],
      ].map(([band, low, high]) => [band, deltas.filter((delta) => delta > (low as number) && delta <= (high as number)).length]),
    ),
    longTasks: run.longTasks.length,
    longestTaskMs: round(Math.max(0, ...run.longTasks)),
    mainThreadMsPerFrame: round(run.taskMs / Math.max(1, deltas.length)),
    layoutMs: run.layoutMs,
    styleMs: run.styleMs,
    scriptMs: run.scriptMs,
  };
}
