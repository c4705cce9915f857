import { describe, expect, it } from 'vitest';
import { clockFromEnv, formatLocalDateTime, formatLocalIso, parseLooseDate, systemClock } from './clock.js';
import { formatLogLine } from './log.js';

describe('clock', () => {
  it('KIOKU_NOW freezes the clock', () => {
    const clock = clockFromEnv({ KIOKU_NOW: '2026-01-02T03:04:05+08:00' });
    expect(clock.now().toISOString()).toBe('2026-01-01T19:04:05.000Z');
    expect(clock.now()).not.toBe(clock.now()); // a fresh Date each time, so callers cannot mutate it
  });

  it('ignores an invalid KIOKU_NOW', () => {
    expect(clockFromEnv({ KIOKU_NOW: 'tomorrow' })).toBe(systemClock);
  });

  it('parses the date formats found in memory files', () => {
    expect(parseLooseDate('2026/11/01 10:15:00')?.getHours()).toBe(10);
    expect(parseLooseDate('2026-11-01')?.getDate()).toBe(1);
    expect(parseLooseDate('2026-11-01T10:15:00+08:00')?.toISOString()).toBe('2026-11-01T02:15:00.000Z');
    expect(parseLooseDate('本工作階段')).toBeUndefined();
    expect(parseLooseDate('')).toBeUndefined();
  });

  it('writes local ISO with the offset', () => {
    const d = new Date(2026, 10, 30, 9, 8, 7);
    expect(formatLocalIso(d)).toMatch(/^2026-11-30T09:08:07[+-]\d\d:\d\d$/);
    expect(formatLocalDateTime(d)).toBe('2026/11/30 09:08:07');
  });
});

describe('OPS-3 log line', () => {
  it('is [yyyy/MM/dd HH:mm:ss][stage][level]: message on one line', () => {
    const line = formatLogLine(new Date(2026, 10, 30, 22, 0, 1), 'sleep', 'WARN', 'two\nlines');
    expect(line).toBe('[2026/11/30 22:00:01][sleep][WARN]: two ⏎ lines');
  });
});
