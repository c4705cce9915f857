import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

describe('LineSplitter', () => {
  it('joins lines split across chunks, multi-byte characters included', () => {
    const splitter = new LineSplitter(1_000);
    const bytes = Buffer.from('{"a":"記憶"}\r\n\n{"b":1}\n{"c"');
    const cut = bytes.indexOf(Buffer.from('憶')) + 1; // inside the 3 bytes of 憶
    expect(splitter.push(bytes.subarray(0, cut))).toEqual({ lines: [], overflow: false });
    expect(splitter.push(bytes.subarray(cut))).toEqual({ lines: ['{"a":"記憶"}', '{"b":1}'], overflow: false });
    expect(splitter.pendingBytes).toBe(4);
    expect(splitter.push(Buffer.from(':2}\n'))).toEqual({ lines: ['{"c":2}'], overflow: false });
  });

  it('reports a line over the limit, counted in bytes, before its newline arrives', () => {
    const splitter = new LineSplitter(8);
    expect(splitter.push(Buffer.from('12345678\n'))).toEqual({ lines: ['12345678'], overflow: false });
    expect(splitter.push(Buffer.from('記憶'))).toEqual({ lines: [], overflow: false });
    expect(splitter.push(Buffer.from('記'))).toEqual({ lines: [], overflow: true });
  });
});
