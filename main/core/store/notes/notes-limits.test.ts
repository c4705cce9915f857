import { describe, expect, it } from 'vitest';
import { countFactBytes, countFactLines, countProjectMemoryChars, measureFacts, measureProjectMemory } from './notes-limits.js';

describe('FACT.md lines (DSH-1)', () => {
  it('a final newline ends the last line instead of starting a new one', () => {
    expect(countFactLines('')).toBe(0);
    expect(countFactLines('a')).toBe(1);
    expect(countFactLines('a\n')).toBe(1);
    expect(countFactLines('a\nb')).toBe(2);
    expect(countFactLines('a\nb\n')).toBe(2);
    expect(countFactLines('a\n\n')).toBe(2);
    expect(countFactLines('\n')).toBe(1);
  });

  it('counts \\r\\n as one line break and a lone \\r as text', () => {
    expect(countFactLines('a\r\nb\r\n')).toBe(2);
    expect(countFactLines('a\rb')).toBe(1);
  });

  it('100 lines with or without the final newline are within the limit; 101 are not', () => {
    const hundred = 'x\n'.repeat(100);
    expect(measureFacts(hundred).over).toEqual([]);
    expect(measureFacts(hundred.slice(0, -1)).over).toEqual([]);
    expect(measureFacts(`${hundred}y`)).toMatchObject({ lines: 101, over: ['lines'] });
    expect(measureFacts(`${hundred}\n`)).toMatchObject({ lines: 101, over: ['lines'] });
  });
});

describe('FACT.md bytes (DSH-1)', () => {
  it('counts UTF-8 bytes after \\r\\n → \\n: a Chinese character is 3 bytes', () => {
    expect(countFactBytes('中文')).toBe(6);
    expect(countFactBytes('a\r\nb')).toBe(3);
    expect(countFactBytes('a\n')).toBe(2);
  });

  it('8000 bytes pass, 8001 do not — CRLF files are measured as if saved with LF', () => {
    const atLimit = `${'中'.repeat(2666)}ab`; // 7998 + 2
    expect(measureFacts(atLimit)).toMatchObject({ bytes: 8000, lines: 1, over: [] });
    expect(measureFacts(`${atLimit}\n`)).toMatchObject({ bytes: 8001, over: ['bytes'] });
    const crlf = `${'a'.repeat(3998)}\r\n${'b'.repeat(4000)}\r\n`; // 3998 + 1 + 4000 + 1
    expect(measureFacts(crlf)).toMatchObject({ bytes: 8000, lines: 2, over: [] });
  });

  it('names both limits when both are passed', () => {
    expect(measureFacts('中文中文\n'.repeat(700)).over).toEqual(['lines', 'bytes']);
  });
});

describe('project MEMORY.md characters (DSH-2)', () => {
  it('counts code points of the trimmed text; \\r\\n is two characters', () => {
    expect(countProjectMemoryChars('  專案約定\n\n')).toBe(4);
    expect(countProjectMemoryChars('a\r\nb')).toBe(4);
    expect(countProjectMemoryChars('😀𠮷')).toBe(2);
  });

  it('8000 characters pass, 8001 do not', () => {
    expect(measureProjectMemory('字'.repeat(8000))).toEqual({ chars: 8000, maxChars: 8000, over: false });
    expect(measureProjectMemory(`${'字'.repeat(8000)}\n`).over).toBe(false);
    expect(measureProjectMemory('字'.repeat(8001))).toEqual({ chars: 8001, maxChars: 8000, over: true });
  });
});
