import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanLinesBackward } from './tail-lines.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-tail-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function linesOf(content: string | Buffer, options = {}): { lines: string[]; reachedStart: boolean } {
  const file = path.join(dir, 'f.jsonl');
  fs.writeFileSync(file, content);
  const lines: string[] = [];
  const { reachedStart } = scanLinesBackward(file, (line) => void lines.push(line), options);
  return { lines, reachedStart };
}

describe('scanLinesBackward', () => {
  it('visits lines last to first across chunk borders, multi-byte text intact', () => {
    const text = ['第一行 一二三', 'second', '三行目 😀', 'last'].join('\n');
    expect(linesOf(text, { chunkBytes: 3 })).toEqual({ lines: ['last', '三行目 😀', 'second', '第一行 一二三'], reachedStart: true });
  });

  it('gives each line the byte it starts at, across chunk borders (who said a turn is found by it, issue 19)', () => {
    const file = path.join(dir, 'o.jsonl');
    const lines = ['第一行 一二三', 'second', '三行目 😀', 'last'];
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const seen: Array<[string, number]> = [];
    scanLinesBackward(file, (line, offset) => void seen.push([line, offset]), { chunkBytes: 5 });
    const starts = lines.map((_, i) =>
      Buffer.byteLength(
        lines
          .slice(0, i)
          .map((l) => `${l}\n`)
          .join(''),
      ),
    );
    expect(seen).toEqual(lines.map((line, i) => [line, starts[i]!]).reverse());
  });

  it('skips blank lines and lines over the length limit without assembling them', () => {
    const text = `keep1\n${'x'.repeat(5000)}\n\n\nkeep2\n`;
    expect(linesOf(text, { chunkBytes: 64, maxLineBytes: 1000 }).lines).toEqual(['keep2', 'keep1']);
  });

  it('stops at the scan budget and drops the line it cut through', () => {
    const text = `${'a'.repeat(100)}\n${'b'.repeat(100)}\n${'c'.repeat(10)}\n`;
    const { lines, reachedStart } = linesOf(text, { chunkBytes: 16, maxScanBytes: 50 });
    expect(lines).toEqual(['c'.repeat(10)]);
    expect(reachedStart).toBe(false);
  });

  it('stops when the visitor says so, and filters bytes before decoding', () => {
    const file = path.join(dir, 'g.jsonl');
    fs.writeFileSync(file, 'one\ntwo\nthree\nfour\n');
    const seen: string[] = [];
    const result = scanLinesBackward(file, (line) => (seen.push(line), seen.length < 2), { accept: (bytes) => !bytes.includes('three') });
    expect(seen).toEqual(['four', 'two']);
    expect(result.stopped).toBe(true);
  });

  it('throws for a missing file (callers turn that into "no dialog")', () => {
    expect(() => scanLinesBackward(path.join(dir, 'missing'), () => true)).toThrow(/ENOENT/);
  });
});
