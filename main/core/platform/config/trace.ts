import fs from 'node:fs';

/**
 * Phase timings for benches (X-PERF): with KIOKU_TRACE=<file>, a process records named marks (ms
 * since it started) and appends them as one JSON line when it is done. Without the variable every
 * call is one comparison, so the hook client and the CLI can keep their marks in place.
 */
const traceFile = process.env.KIOKU_TRACE;
const marks: Record<string, number> = {};

export function traceMark(phase: string): void {
  if (traceFile) marks[phase] = Math.round(performance.now() * 100) / 100;
}

/** Append this process's marks as `{"what": …, "marks": {phase: ms}}`; never throws. */
export function traceFlush(what: string): void {
  if (!traceFile || Object.keys(marks).length === 0) return;
  try {
    fs.appendFileSync(traceFile, `${JSON.stringify({ what, pid: process.pid, marks })}\n`);
  } catch {
    /* a trace is never a reason to fail */
  }
}
