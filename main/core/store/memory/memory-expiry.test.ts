import yaml from 'js-yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as frontmatter from '../../platform/frontmatter/parse-frontmatter.js';
import { expiryTime, isExpired } from './memory-expiry.js';
import { parseMemory } from './memory-file.js';

vi.mock('../../platform/frontmatter/parse-frontmatter.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../platform/frontmatter/parse-frontmatter.js')>();
  return { ...real, parseFrontmatter: vi.fn(real.parseFrontmatter) };
});
afterEach(() => vi.mocked(frontmatter.parseFrontmatter).mockClear());

/** MEM-8 `expires` dates (issue 11: every date shape of the seed files must expire). */
const ms = (iso: string) => new Date(iso).getTime();
const expired = (expires: string, at: Date) => isExpired({ expires }, at);

describe('MEM-8 date expires', () => {
  it.each([
    ['2026/12/01T10:00Z', '2026-12-01T10:00:00Z'],
    ['2026/12/01 10:00:00Z', '2026-12-01T10:00:00Z'],
    ['2026/12/01T10:00:00+08:00', '2026-12-01T02:00:00Z'],
    ['2026/12/01 10:00+0800', '2026-12-01T02:00:00Z'],
    ['2026-12-01T10:00:00Z', '2026-12-01T10:00:00Z'],
    ['2026-12-01 10:00:00-05:00', '2026-12-01T15:00:00Z'],
  ])('%s runs out at %s, in every time zone', (expires, at) => {
    expect(expiryTime(expires)?.getTime()).toBe(ms(at));
    expect(expired(expires, new Date(ms(at) - 1))).toBe(false);
    expect(expired(expires, new Date(ms(at)))).toBe(true);
  });

  it.each(['2026/12/01 10:00:00', '2026/12/01T10:00', '2026-12-01 10:00'])('%s (no zone) runs out at that local time', (expires) => {
    expect(expiryTime(expires)?.getTime()).toBe(new Date(2026, 11, 1, 10).getTime());
  });

  it.each(['2026/12/01', '2026-12-01', '2026-12-1'])(
    '%s (a bare day, what 今天 is written as) lasts to the end of that local day',
    (expires) => {
      expect(expired(expires, new Date(2026, 11, 1, 23, 59, 59, 999))).toBe(false);
      expect(expired(expires, new Date(2026, 11, 2, 0, 0, 0))).toBe(true);
    },
  );

  it('condition texts and impossible dates never expire by date', () => {
    for (const expires of ['PR 合併後失效', '', '2026/02/30', '2026 年 12 月']) {
      expect(expiryTime(expires), expires).toBeUndefined();
      expect(expired(expires, new Date(2030, 0, 1))).toBe(false);
    }
  });

  it('an unquoted ISO time in the frontmatter is read as the text written (not a YAML timestamp) and expires', () => {
    const memory = parseMemory('---\nid: m1\ncategory: daily\nexpires: 2026-12-01T10:00:00Z\n---\n內容\n');
    expect(memory.expires).toBe('2026-12-01T10:00:00Z');
    expect(isExpired(memory, new Date(ms('2026-12-01T09:59:59Z')))).toBe(false);
    expect(isExpired(memory, new Date(ms('2026-12-01T10:00:00Z')))).toBe(true);
  });

  it('a frontmatter reader that turns dates into Date objects still gives a date that expires', () => {
    // What js-yaml's default schema (YAML timestamps) makes of unquoted dates.
    const asYamlTimestamps = (text: string) => {
      const block = /^---\n([\s\S]*?)\n---\n/.exec(text)!;
      return {
        data: yaml.load(block[1]!) as Record<string, unknown>,
        body: text.slice(block[0].length),
        hasFrontmatter: true,
        lenient: false,
      };
    };
    vi.mocked(frontmatter.parseFrontmatter).mockImplementation(asYamlTimestamps);
    try {
      const instant = parseMemory(
        '---\nid: m1\ncategory: daily\nexpires: 2026-12-01T10:00:00Z\ncreated: 2026-11-30T12:00:00+08:00\n---\n內容\n',
      );
      expect(instant.expires).toBe('2026-12-01T10:00:00Z');
      expect(instant.created).toBe('2026-11-30T04:00:00Z');
      expect(isExpired(instant, new Date(ms('2026-12-01T10:00:00Z')))).toBe(true);
      expect(isExpired(instant, new Date(ms('2026-12-01T09:59:59Z')))).toBe(false);
      // A bare day stays that day (YAML puts it at UTC midnight, which is another day west of UTC).
      const day = parseMemory('---\nid: m2\ncategory: daily\nexpires: 2026-12-01\n---\n內容\n');
      expect(day.expires).toBe('2026-12-01');
      expect(isExpired(day, new Date(2026, 11, 1, 23, 59))).toBe(false);
      expect(isExpired(day, new Date(2026, 11, 2))).toBe(true);
    } finally {
      vi.mocked(frontmatter.parseFrontmatter).mockRestore();
    }
  });
});
