import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const saved = process.env.KIOKU_TRACE;
let dir: string | undefined;
afterEach(() => {
  if (saved === undefined) delete process.env.KIOKU_TRACE;
  else process.env.KIOKU_TRACE = saved;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  vi.resetModules();
  // The marks live on the global object (trace.ts), so that both bundles' copies share them.
  for (const name of ['kioku.trace.marks', 'kioku.trace.spans']) delete (globalThis as Record<symbol, unknown>)[Symbol.for(name)];
});

/** KIOKU_TRACE set to a fresh file, read when trace.ts is next imported (after resetModules). */
function traceToTempFile(): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-trace-'));
  const file = path.join(dir, 'trace.jsonl');
  process.env.KIOKU_TRACE = file;
  vi.resetModules();
  return file;
}

describe('KIOKU_TRACE phase marks', () => {
  it("keeps the marks of a second copy of the module (the hook's fallback bundle) in the same line", async () => {
    const file = traceToTempFile();
    const first = await import('./trace.js');
    vi.resetModules();
    const second = await import('./trace.js');
    expect(second).not.toBe(first);
    first.traceMark('asking');
    second.traceMark('fallback-loaded');
    first.traceFlush('hook session-start');
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const { what, marks } = JSON.parse(lines[0]!) as { what: string; marks: Record<string, number> };
    expect(what).toBe('hook session-start');
    expect(Object.keys(marks).sort()).toEqual(['asking', 'fallback-loaded']);
  });

  it("records a span it was told of (the daemon's own work) beside the marks, and only a real duration", async () => {
    const file = traceToTempFile();
    const trace = await import('./trace.js');
    trace.traceMark('reply');
    trace.traceSpan('daemon', 2.345);
    trace.traceSpan('negative', -1);
    trace.traceSpan('nan', Number.NaN);
    trace.traceFlush('hook stop');
    const line = JSON.parse(fs.readFileSync(file, 'utf8')) as { marks: Record<string, number>; spans: Record<string, number> };
    expect(Object.keys(line.marks)).toEqual(['reply']);
    expect(line.spans).toEqual({ daemon: 2.35 });
  });
});
