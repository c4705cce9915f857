import { describe, expect, it } from 'vitest';
import {
  clockFromEnv,
  formatLocalDateTime,
  formatLocalIso,
  formatUtcOffset,
  isoString,
  parseLooseDate,
  parseStrictDate,
  systemClock,
} from './clock.js';
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

  it('issue 11: reads every date shape of the seed files, with or without a zone, / or - separated', () => {
    const utc = (h: number, mi = 0) => new Date(Date.UTC(2026, 11, 1, h, mi)).toISOString();
    // With a zone: the same instant in every time zone the test runs in.
    expect(parseLooseDate('2026/12/01T10:00Z')?.toISOString()).toBe(utc(10));
    expect(parseLooseDate('2026/12/01 10:00:00Z')?.toISOString()).toBe(utc(10));
    expect(parseLooseDate('2026/12/01T10:00:00+08:00')?.toISOString()).toBe(utc(2));
    expect(parseLooseDate('2026/12/01 10:00:00+0800')?.toISOString()).toBe(utc(2));
    expect(parseLooseDate('2026/12/01 10:00 -05:30')?.toISOString()).toBe(utc(15, 30));
    expect(parseLooseDate('2026-12-01 10:00:00Z')?.toISOString()).toBe(utc(10));
    expect(parseLooseDate('2026-12-01T10:00:00.250+08:00')?.toISOString()).toBe('2026-12-01T02:00:00.250Z');
    expect(parseLooseDate('2026/12/01t10:00z')?.toISOString()).toBe(utc(10));
    // Without a zone: local time; a bare day is the local day's start.
    expect(parseLooseDate('2026/12/01 10:00:00')?.getTime()).toBe(new Date(2026, 11, 1, 10).getTime());
    expect(parseLooseDate('2026/12/01T10:00')?.getTime()).toBe(new Date(2026, 11, 1, 10).getTime());
    expect(parseLooseDate('2026-12-01 10:00')?.getTime()).toBe(new Date(2026, 11, 1, 10).getTime());
    expect(parseLooseDate('2026/12/01')?.getTime()).toBe(new Date(2026, 11, 1).getTime());
    expect(parseLooseDate('2026-1-5')?.getTime()).toBe(new Date(2026, 0, 5).getTime());
    expect(parseStrictDate('2026/12/01')).toMatchObject({ dateOnly: true });
    expect(parseStrictDate('2026/12/01 00:00')).toMatchObject({ dateOnly: false });
    // Anything Date reads still parses; a Date (a YAML reader's timestamp) is taken as it is.
    expect(parseLooseDate('Tue, 01 Dec 2026 10:00:00 GMT')?.toISOString()).toBe(utc(10));
    expect(parseLooseDate(new Date(Date.UTC(2026, 11, 1, 10)))?.toISOString()).toBe(utc(10));
  });

  it('issue 11: refuses impossible dates instead of rolling them over', () => {
    for (const text of [
      '2026/02/30',
      '2026-02-30T10:00:00Z',
      '2026/13/01',
      '2026/12/01 24:00',
      '2026/12/01 10:60',
      '2026/12/01T10:00+19:00',
      '2026/12-01',
      '今天',
    ]) {
      expect(parseStrictDate(text), text).toBeUndefined();
    }
    expect(parseLooseDate('2026/02/30')).toBeUndefined();
    expect(parseLooseDate('2026-02-30T10:00:00Z')).toBeUndefined();
    expect(parseLooseDate(new Date(Number.NaN))).toBeUndefined();
  });

  it('writes local ISO with the offset', () => {
    const d = new Date(2026, 10, 30, 9, 8, 7);
    expect(formatLocalIso(d)).toMatch(/^2026-11-30T09:08:07[+-]\d\d:\d\d$/);
    expect(formatLocalDateTime(d)).toBe('2026/11/30 09:08:07');
    expect(formatLocalIso(d).slice(-6)).toBe(formatUtcOffset(-d.getTimezoneOffset()));
    expect([480, 345, 0, -210, -480].map(formatUtcOffset)).toEqual(['+08:00', '+05:45', '+00:00', '-03:30', '-08:00']);
  });
});

describe('isoString', () => {
  it('is Date#toISOString for every year 0–9999, and the built-in itself beyond (or its error for an invalid date)', () => {
    const samples = [
      0,
      1,
      -1,
      951782400000,
      1764998400123,
      Date.UTC(0, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      -62198755200001,
    ];
    // And a spread of random instants across the range, milliseconds included.
    let seed = 7;
    for (let i = 0; i < 500; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      samples.push(Math.floor((seed / 2 ** 31) * 253402300799999));
    }
    for (const ms of samples) expect(isoString(new Date(ms))).toBe(new Date(ms).toISOString());
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('OPS-3 log line', () => {
  it('is [yyyy/MM/dd HH:mm:ss][stage][level]: message on one line', () => {
    const line = formatLogLine(new Date(2026, 10, 30, 22, 0, 1), 'sleep', 'WARN', 'two\nlines');
    expect(line).toBe('[2026/11/30 22:00:01][sleep][WARN]: two ⏎ lines');
  });
});

describe('parseStrictDate, the shape Kioku writes', () => {
  // A lowercase `t` is the same date to STRICT_DATE but not the native shortcut: both ways must agree.
  const slowly = (text: string) => parseStrictDate(text.replace('T', 't'));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');

  it('reads it as STRICT_DATE does, valid or not: leap days, month ends, 24:00, far offsets, years below 1000', () => {
    const cases: string[] = [];
    for (const year of [50, 999, 1900, 2000, 2024, 2026, 2100, 9999])
      for (const month of [1, 2, 4, 12, 13])
        for (const day of [0, 1, 28, 29, 30, 31])
          for (const [hour, zone] of [
            [0, 'Z'],
            [23, '+08:00'],
            [24, '+08:00'],
            [12, '-09:30'],
            [12, '+18:00'],
            [12, '+18:01'],
            [12, '+19:00'],
          ] as const)
            cases.push(`${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:59:59${zone}`);
    cases.push('2026-11-29T10:00:60+08:00', '2026-11-29T10:60:00+08:00', formatLocalIso(new Date(2026, 10, 29, 10, 0, 0)));
    let valid = 0;
    for (const text of cases) {
      const expected = slowly(text);
      expect(parseStrictDate(text), text).toEqual(expected);
      if (expected) valid++;
    }
    expect(valid).toBeGreaterThan(100); // the shortcut was taken, not only refused
  });
});
