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
});

describe('KIOKU_TRACE phase marks', () => {
  it("keeps the marks of a second copy of the module (the hook's fallback bundle) in the same line", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-trace-'));
    const file = path.join(dir, 'trace.jsonl');
    process.env.KIOKU_TRACE = file;
    vi.resetModules();
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
});
