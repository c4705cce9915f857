import { describe, expect, it } from 'vitest';
import { groupDigits } from './group-digits.js';

describe('groupDigits', () => {
  it('writes what toLocaleString("en-US") writes for whole numbers', () => {
    for (const value of [0, 7, 999, 1000, 12_345, 100_000, 1_234_567, -1, -1000, -987_654_321, Number.MAX_SAFE_INTEGER])
      expect(groupDigits(value), String(value)).toBe(value.toLocaleString('en-US'));
  });

  it('leaves anything else to Intl', () => {
    expect(groupDigits(1234.5)).toBe('1,234.5');
    expect(groupDigits(Number.NaN)).toBe('NaN');
  });
});
