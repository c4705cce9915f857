import { describe, expect, it } from 'vitest';
import { AMBIGUOUS_SIMPLIFIED } from './ambiguous-hanzi.js';
import { loadOpenccTables } from './opencc-tables.js';
import { guardScript } from './script-guard.js';
import { SIMPLIFIED_READINGS } from './simplified-readings.js';

/**
 * The generated list of characters the script guard could change must be exactly OpenCC's
 * one-character table plus the ambiguous ones; an opencc-js upgrade that changes them fails here
 * (regenerate with `npm run build && node scripts/write-simplified-readings.mjs`).
 */
describe('SIMPLIFIED_READINGS', () => {
  it("is OpenCC's one-character table and the ambiguous characters, nothing more or less", async () => {
    const tables = await loadOpenccTables();
    const expected = new Set([...tables.chars.keys(), ...Object.keys(AMBIGUOUS_SIMPLIFIED)]);
    expect([...SIMPLIFIED_READINGS].sort()).toEqual([...expected].sort());
  });

  it('holds Han characters only (a recall query without Han skips the guard on that alone)', () => {
    expect([...SIMPLIFIED_READINGS].filter((char) => !/^\p{Script=Han}$/u.test(char))).toEqual([]);
  });

  it('a text of Han characters outside it comes back from the guard unchanged', async () => {
    const outside: string[] = [];
    for (let code = 0x4e00; code <= 0x9fff; code++) {
      const char = String.fromCodePoint(code);
      if (!SIMPLIFIED_READINGS.has(char)) outside.push(char);
    }
    expect(outside.length).toBeGreaterThan(10_000);
    // In sentences of 40, so that phrase matches across neighbours are tried too.
    for (let at = 0; at < outside.length; at += 40) {
      const text = outside.slice(at, at + 40).join('');
      expect((await guardScript(text)).text).toBe(text);
    }
  });
});
