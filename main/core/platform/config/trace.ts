import fs from 'node:fs';

/**
 * Phase timings for benches (X-PERF): with KIOKU_TRACE=<file>, a process records named marks (ms
 * since it started) and appends them as one JSON line when it is done. Without the variable every
 * call is one comparison, so the hook client and the CLI can keep their marks in place.
 */
const traceFile = process.env.KIOKU_TRACE;
/**
 * On the global object, not in this module: the hook client's fallback is a second bundle with its
 * own copy of this file (scripts/build-hooks.mjs), and its marks belong in the same line.
 */
const TRACE_MARKS = Symbol.for('kioku.trace.marks');
const marks: Record<string, number> = ((globalThis as Record<symbol, unknown>)[TRACE_MARKS] ??= {}) as Record<string, number>;

const TRACE_SPANS = Symbol.for('kioku.trace.spans');
const spans: Record<string, number> = ((globalThis as Record<symbol, unknown>)[TRACE_SPANS] ??= {}) as Record<string, number>;

export function traceMark(phase: string): void {
  if (traceFile) marks[phase] = Math.round(performance.now() * 100) / 100;
}

/**
 * A duration this process was told of rather than lived through (ms): the daemon's own share of
 * a hook's round trip, which the hook's marks cannot separate from the socket's.
 */
export function traceSpan(name: string, ms: number): void {
  if (traceFile && Number.isFinite(ms) && ms >= 0) spans[name] = Math.round(ms * 100) / 100;
}

/** Append this process's marks as `{"what": …, "marks": {phase: ms}, "spans"?: {name: ms}}`; never throws. */
export function traceFlush(what: string): void {
  if (!traceFile || Object.keys(marks).length === 0) return;
  try {
    const line = Object.keys(spans).length ? { what, pid: process.pid, marks, spans } : { what, pid: process.pid, marks };
    fs.appendFileSync(traceFile, `${JSON.stringify(line)}\n`);
  } catch {
    /* a trace is never a reason to fail */
  }
}
