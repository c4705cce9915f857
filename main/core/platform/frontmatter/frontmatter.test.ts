import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { loadYamlGuarded, MAX_YAML_DEPTH, RefusedYamlError } from './guarded-yaml.js';
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

/** Nine lines of nine aliases each: about 400 bytes that expand into 9^9 strings (issue 14). */
export function aliasBomb(fields = 'id: BOMB\ncategory: daily\nsummary: 炸彈'): string {
  const names = 'abcdefghi';
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < names.length; i++)
    lines.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(',')}]`,
    );
  return `---\n${fields}\n${lines.join('\n')}\ntags: *i\n---\nbody\n`;
}

describe('anchors and aliases are refused (issue 14)', () => {
  it('refuses a billion-laughs block instead of returning its shared references', () => {
    expect(() => parseFrontmatter(aliasBomb())).toThrow(RefusedYamlError);
    expect(() => parseFrontmatter(aliasBomb())).toThrow(/YAML anchor \(&name\).*found "&a"/);
  });

  it('refuses an anchor in a block that is not strict YAML (the line reader never reads around it)', () => {
    const lenient = `---\nsummary: 使用者說: 好\nlol:\n  a: &a [x, x, x]\n  b: [*a, *a, *a]\n---\nbody`;
    expect(() => parseFrontmatter(lenient)).toThrow(RefusedYamlError);
    const oneLine = `---\nsummary: 使用者說: 好\ntags: [&a [x, x], *a, *a]\n---\nbody`;
    expect(() => parseFrontmatter(oneLine)).toThrow(RefusedYamlError);
  });

  it('refuses anchors on scalars, block lists, maps and merge keys alike', () => {
    for (const block of ['x: &s text\ny: *s', 'x: &l\n  - 1\n  - 2\ny: *l', 'x: &m\n  k: v\ny:\n  <<: *m', 'x: &only 1']) {
      expect(() => parseFrontmatter(`---\n${block}\n---\n`), block).toThrow(RefusedYamlError);
    }
  });

  it('reads & and * inside values as text, as YAML does (no false positives)', () => {
    const text = [
      '---',
      'id: 20261101-101500-ab12',
      'summary: R&D *重要*',
      'tags: [R&D, "&a", \'*b\', a & b]',
      'note: "&quoted *too"',
      'detail: |',
      '  &not-an-anchor',
      '  *not-an-alias',
      'links: [a&b]',
      '---',
      '本文 & *強調*',
    ].join('\n');
    const { data, body, lenient } = parseFrontmatter(text);
    expect(lenient).toBe(false);
    expect(data).toEqual({
      id: '20261101-101500-ab12',
      summary: 'R&D *重要*',
      tags: ['R&D', '&a', '*b', 'a & b'],
      note: '&quoted *too',
      detail: '&not-an-anchor\n*not-an-alias\n',
      links: ['a&b'],
    });
    expect(body.trim()).toBe('本文 & *強調*');
  });

  it('keeps the line reading for a value that starts with "*" (an alias to nothing is not YAML, as before)', () => {
    const { data, lenient } = parseFrontmatter('---\nsummary: *重要* 事項\n---\nx');
    expect(lenient).toBe(true);
    expect(data.summary).toBe('*重要* 事項');
  });

  it('reads nesting deeper than MAX_YAML_DEPTH as text, never as a value that deep', () => {
    const depth = 5000;
    const { data } = parseFrontmatter(`---\nid: deep\ntags: ${'['.repeat(depth)}x${']'.repeat(depth)}\n---\nx`);
    expect(data.id).toBe('deep');
    const nestingOf = (value: unknown): number => (Array.isArray(value) ? 1 + Math.max(0, ...value.map(nestingOf)) : 0);
    expect(nestingOf(data.tags)).toBeLessThanOrEqual(MAX_YAML_DEPTH);
    // The block's own map and the innermost scalar count as levels too.
    const shallow = `---\ntags: ${'['.repeat(MAX_YAML_DEPTH - 2)}x${']'.repeat(MAX_YAML_DEPTH - 2)}\n---\n`;
    expect(nestingOf(parseFrontmatter(shallow).data.tags)).toBe(MAX_YAML_DEPTH - 2);
  });
});

/**
 * parse-frontmatter.ts splits the block from the body itself, as gray-matter 4 did for every
 * file read so far (it is a dev dependency now, for this check only): the same data, body and
 * strictness on the texts where the two could part — a `----` line inside the block, a closing
 * fence with trailing text or spaces, CRLF, blank and comment-only blocks, YAML that reads as
 * null, a scalar or a list, a body that starts with blank lines.
 */
describe('the block and body split as gray-matter split them', () => {
  const viaGrayMatter = (text: string) => {
    try {
      const parsed = matter(text, { engines: { yaml: (block: string) => loadYamlGuarded(block) as object }, language: 'yaml' });
      const data = parsed.data;
      if (data && typeof data === 'object' && !Array.isArray(data)) return { data, body: parsed.content, lenient: false };
    } catch {
      /* the lenient reader, the same code either way */
    }
    return { lenient: true };
  };
  const texts = {
    plain: '---\nid: a\nsummary: 好\n---\n\nbody\n',
    crlf: '---\r\nid: a\r\n---\r\n\r\nbody\r\n',
    'no body': '---\nid: a\n---',
    'spaces after the closing fence': '---\nid: a\n---   \nbody',
    'spaces after the opening fence': '---  \nid: a\n---\nbody',
    'a ---- line inside the block': '---\nid: a\n----\nx: 1\n---\nbody',
    'text after a --- inside the block': '---\nid: a\n--- not the end\nx: 1\n---\nbody',
    'empty block': '---\n---\nbody',
    'blank block': '---\n\n  \n---\nbody',
    'comments only': '---\n# a comment\n  # another\n---\nbody',
    'comments and data': '---\n# a comment\nid: a\n---\nbody',
    'null YAML': '---\n~\n---\nbody',
    'scalar YAML': '---\njust words\n---\nbody',
    'list YAML': '---\n- a\n- b\n---\nbody',
    'body with leading blank lines': '---\nid: a\n---\n\n\n\nbody\n',
    'a CRLF blank line after the closing fence': '---\nid: a\n---\r\n\r\nbody',
    'a tab after the closing fence': '---\nid: a\n---\t\nbody',
    'not YAML': '---\nsummary: 使用者說: 好\n---\nbody',
  };
  for (const [name, text] of Object.entries(texts)) {
    it(name, () => {
      const ours = parseFrontmatter(text);
      const theirs = viaGrayMatter(text);
      expect(ours.lenient).toBe(theirs.lenient);
      if (!theirs.lenient) expect({ data: ours.data, body: ours.body }).toEqual({ data: theirs.data, body: theirs.body });
    });
  }
});
