import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readUtf16File, utf16Bytes } from './utf16-text-file.js';

describe('UTF-16LE cache files', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-utf16-'));
  const file = path.join(dir, 'cache.json');
  afterEach(() => fs.rmSync(file, { force: true }));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('give back exactly the text written, CJK, emoji and a lone surrogate included', () => {
    const text = JSON.stringify({ summary: '記憶：整理部署流程 🐱', odd: '\ud800', ascii: 'plain' });
    fs.writeFileSync(file, utf16Bytes(text));
    expect(fs.statSync(file).size).toBe(text.length * 2);
    expect(readUtf16File(file, 1_000)).toBe(text);
  });

  it('are nothing when missing, a folder, too large, or of an odd length', () => {
    expect(readUtf16File(file, 1_000)).toBeUndefined();
    expect(readUtf16File(dir, 1_000)).toBeUndefined();
    fs.writeFileSync(file, utf16Bytes('x'.repeat(600)));
    expect(readUtf16File(file, 1_000)).toBeUndefined();
    expect(readUtf16File(file, 1_200)).toBe('x'.repeat(600));
    fs.writeFileSync(file, '{"a":1}'); // seven bytes of UTF-8: an older format's file
    expect(readUtf16File(file, 1_000)).toBeUndefined();
  });
});
