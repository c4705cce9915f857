import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from './parse-frontmatter.js';
import { formatScalar, stringifyFrontmatter } from './stringify-frontmatter.js';

describe('parseFrontmatter', () => {
  it('reads YAML and keeps dates as written', () => {
    const { data, body, lenient } = parseFrontmatter('---\nid: A\ncreated: 2026-01-01\ntags: [a, b]\npriority: 3\n---\n\nbody\n');
    expect(lenient).toBe(false);
    expect(data).toEqual({ id: 'A', created: '2026-01-01', tags: ['a', 'b'], priority: 3 });
    expect(body.trim()).toBe('body');
  });

  it('falls back to key: value lines when the block is not YAML', () => {
    const { data, lenient } = parseFrontmatter('---\nsummary: 使用者說: 好\ntags: 偏好, 風格\nempty:\n---\nx');
    expect(lenient).toBe(true);
    expect(data).toEqual({ summary: '使用者說: 好', tags: '偏好, 風格', empty: null });
  });

  it('strips a BOM and handles CRLF', () => {
    const { data, body } = parseFrontmatter('\uFEFF---\r\nid: B\r\n---\r\nhello\r\n');
    expect(data.id).toBe('B');
    expect(body).toContain('hello');
  });

  it('treats a file without a fence as all body', () => {
    expect(parseFrontmatter('# title\ntext')).toMatchObject({ hasFrontmatter: false, body: '# title\ntext' });
  });

  it('throws on a fence that is never closed', () => {
    expect(() => parseFrontmatter('---\nid: a: b\nno end')).toThrow(/never closed/);
  });
});

describe('stringifyFrontmatter', () => {
  it('quotes only what YAML would misread, and round-trips', () => {
    expect(formatScalar('喜歡咖啡')).toBe('喜歡咖啡');
    expect(formatScalar('a: b')).toBe('"a: b"');
    expect(formatScalar('yes')).toBe('"yes"');
    expect(formatScalar('123')).toBe('"123"');
    expect(formatScalar('{{name}}')).toBe('"{{name}}"');
    const data = { id: 'x', summary: '說: 好 # 不是註解', tags: ['a, b', '中文'], n: 2, none: null, nested: { k: 1 } };
    const text = stringifyFrontmatter(data, 'body\n');
    const parsed = parseFrontmatter(text);
    expect(parsed.lenient).toBe(false);
    expect(parsed.data).toEqual(data);
  });
});

describe('unclosed and empty blocks', () => {
  it('reports an unclosed block even when the rest would parse as YAML', () => {
    expect(() => parseFrontmatter('---\nid: a\nsummary: b\n')).toThrow(/never closed/);
  });

  it('accepts an empty block', () => {
    expect(parseFrontmatter('---\n---\nbody')).toMatchObject({ hasFrontmatter: true, body: 'body' });
  });
});

describe('lenient blocks keep what YAML can read', () => {
  it('reads block scalars, nested maps and lists around a line that is not YAML', () => {
    const { data, lenient } = parseFrontmatter(
      '---\nsummary: 使用者說: 好\ndetail: |\n  第一行\n  第二行\nsource:\n  url: https://example.com\n  seen: 2\ntags:\n  - 偏好\n  - 風格\n---\nbody',
    );
    expect(lenient).toBe(true);
    expect(data).toEqual({
      summary: '使用者說: 好',
      detail: '第一行\n第二行\n',
      source: { url: 'https://example.com', seen: 2 },
      tags: ['偏好', '風格'],
    });
  });

  it('survives a rewrite: what was read is what is written back', () => {
    const text = '---\nsummary: 使用者說: 好\ndetail: |\n  第一行\n  第二行\nsource:\n  url: https://example.com\n---\nbody\n';
    const first = parseFrontmatter(text);
    const again = parseFrontmatter(stringifyFrontmatter(first.data, first.body));
    expect(again.data).toEqual(first.data);
  });
});
