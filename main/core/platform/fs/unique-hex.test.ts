import { describe, expect, it } from 'vitest';
import { KIOKU_TEMP_NAME } from './atomic-write.js';
import { uniqueHex } from './unique-hex.js';

describe('uniqueHex', () => {
  it('is always eight lowercase hex digits, the shape temp and spool names are told by', () => {
    for (let i = 0; i < 2000; i++) {
      const hex = uniqueHex();
      expect(hex).toMatch(/^[0-9a-f]{8}$/);
      expect(KIOKU_TEMP_NAME.test(`.state.json.${process.pid}-${hex}.tmp`)).toBe(true);
    }
  });

  it('tells one process’s names apart (2,000 draws of 32 bits: one repeat is rare, three never happen)', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => uniqueHex()));
    expect(seen.size).toBeGreaterThanOrEqual(1998);
  });
});
