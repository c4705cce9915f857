import { describe, expect, it } from 'vitest';
import { isInSleepWindow } from './sleep-window.js';

const at = (h: number, m = 0) => new Date(2026, 10, 30, h, m);

describe('isInSleepWindow', () => {
  it('covers 22:00–06:00 across midnight, start inside and end outside', () => {
    expect(isInSleepWindow('22:00', '06:00', at(21, 59))).toBe(false);
    expect(isInSleepWindow('22:00', '06:00', at(22, 0))).toBe(true);
    expect(isInSleepWindow('22:00', '06:00', at(3))).toBe(true);
    expect(isInSleepWindow('22:00', '06:00', at(5, 59))).toBe(true);
    expect(isInSleepWindow('22:00', '06:00', at(6, 0))).toBe(false);
  });

  it('handles a window within one day, and start == end as no window', () => {
    expect(isInSleepWindow('13:00', '14:00', at(13, 30))).toBe(true);
    expect(isInSleepWindow('13:00', '14:00', at(14, 0))).toBe(false);
    expect(isInSleepWindow('00:00', '00:00', at(3))).toBe(false);
  });
});
