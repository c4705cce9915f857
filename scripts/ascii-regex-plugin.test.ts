import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a build script in plain JavaScript, without types
import { escapeRawTemplateText, escapeRegexLiteral, escapeRegexLiterals } from './ascii-regex-plugin.mjs';

const escapeLiteral = escapeRegexLiteral as (literal: string) => string;
const escapeSource = escapeRegexLiterals as (text: string, fileName: string) => string;
const escapeRaw = escapeRawTemplateText as (text: string) => string;

/** The RegExp a literal's source text makes. */
const regexOf = (literal: string) => new Function(`return ${literal};`)() as RegExp;

/** Every match (text, index and groups) of `regex` in `text`, for comparing two patterns' behaviour. */
function matches(regex: RegExp, text: string): unknown {
  const global = new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`);
  return [...text.matchAll(global)].map((m) => [m.index, [...m]]);
}

/** Literals like the sources', non-ASCII in every position a pattern allows. */
const LITERALS = [
  '/工作階段|工作阶段|會話|this session/i',
  '/session[\\s=:：]+(?=[^\\s，,）)]*\\d)([A-Za-z0-9]+)/',
  '/[,，、]/',
  '/^(主旨|gist)\\s*[:：]\\s*/i',
  '/(?<=[\\n。！？!?])/u',
  '/[。！？!?；;…]|[.](?=\\s|$)|\\n/g',
  '/^[[【(（]\\s*([^\\]】)）]{1,24}?)\\s*[\\]】)）]/',
  '/\\。|\\\\。/', // an identity escape, and an escaped backslash before the character
  '/[😀-😂]x/u', // astral characters in a class: one code point each with u
  '/😀+/', // and without u, two units, the second repeated
  '/[一-龥]{2,}/g',
];

const SAMPLES = [
  '這次的工作階段很順利。this session, 會話！',
  'session：abc123，然後 session=xyz9）',
  'a,b，c、d',
  '主旨：部署 gist: x',
  '好。再來！真的？是!',
  '一句。兩句；三句…四. 五\n六',
  '【備註】內容 (note) （注）',
  '句號。反斜線\\。',
  '😀x😁x😂x😃x',
  '😀😀\uDE00\uDE00',
  '中文字與English混合的句子',
];

describe('escapeRegexLiteral', () => {
  it('writes a literal in ASCII that matches exactly what the original does, flags and escapes included', () => {
    for (const literal of LITERALS) {
      const escaped = escapeLiteral(literal);
      expect(escaped).not.toMatch(/[^\x00-\x7f]/);
      const [before, after] = [regexOf(literal), regexOf(escaped)];
      expect(after.flags).toBe(before.flags);
      for (const text of SAMPLES) expect(matches(after, text), `${literal} on ${text}`).toEqual(matches(before, text));
    }
  });
});

describe('escapeRawTemplateText', () => {
  it('writes a String.raw template in ASCII with exactly the value it had, escapes and backslashes included', () => {
    // Texts like redact-sync.ts's: CJK beside \s, \u escapes, a backslash before a CJK character.
    const texts = [
      '(?:就是|是|為|为)',
      '[^\\s"\'&,;<>，。；、）)]+',
      '“([^”\\n]{1,512})”|「([^」\\n]{1,512})」',
      '[ \\t\\u3000]',
      '\\。 and \\\\。',
      '😀x',
      'ascii only',
    ];
    for (const text of texts) {
      const escaped = escapeRaw(text);
      expect(escaped, text).not.toMatch(/[^\x00-\x7f]/);
      const value = (raw: string) => new Function(`return String.raw\`${raw}\`;`)() as string;
      expect(value(escaped), text).toBe(value(text));
    }
  });
});

describe('escapeRegexLiterals', () => {
  it('rewrites the regular expression literals and String.raw templates of a source and nothing else (strings, other templates, comments, division)', () => {
    const source = [
      '// 註解：不動',
      "const label: string = '工作階段';",
      'const raw = String.raw`（${label}）`;',
      'const ratio = label.length / 2 / 1;',
      'const split = (text: string) => text.split(/[,，、]/);',
      'const tagged = /^(主旨|gist)\\s*[:：]/i.test(`主旨：${raw}`);',
    ].join('\n');
    const out = escapeSource(source, 'sample.ts');
    expect(out.split('\n')).toEqual([
      '// 註解：不動',
      "const label: string = '工作階段';",
      'const raw = String.raw`${"\\uff08"}${label}${"\\uff09"}`;',
      'const ratio = label.length / 2 / 1;',
      'const split = (text: string) => text.split(/[,\\uff0c\\u3001]/);',
      'const tagged = /^(\\u4e3b\\u65e8|gist)\\s*[:\\uff1a]/i.test(`主旨：${raw}`);',
    ]);
    expect(escapeSource('const a = 1 / 2;', 'ascii.js')).toBe('const a = 1 / 2;');
  });

  it('leaves the bundles every recall and every hook loads in pure ASCII (built by npm run build)', () => {
    // One non-ASCII character makes V8 keep and scan the whole bundle as two-byte text (issue 17).
    for (const file of [
      'dist/cli-fast/recall-launcher.js',
      'dist/cli-fast/recall-fast.js',
      'dist/cli-fast/recall-direct-fast.js',
      'dist/hooks/kioku-hook.js',
      'dist/hooks/hook-client.js',
      'dist/hooks/hook-fallback.js',
    ]) {
      const text = fs.readFileSync(path.resolve(file), 'utf8');
      expect(text.match(/.{0,40}[^\x00-\x7f].{0,20}/)?.[0], file).toBeUndefined();
    }
  });

  it('leaves no Unicode property escape to be compiled as the bundles load (write /[\\p{L}]/, not /\\p{L}/)', () => {
    // esbuild 0.28 turns a literal with \p{…} outside a character class into `new RegExp(…)`:
    // built where it is evaluated (at load, for a module-level one), the property's whole set
    // with it — 0.4 ms for \p{Script=Han} (issue 17). In a class the literal stays one.
    for (const dir of ['dist/hooks', 'dist/cli-fast']) {
      for (const name of fs.readdirSync(path.resolve(dir)).filter((file) => file.endsWith('.js'))) {
        const text = fs.readFileSync(path.resolve(dir, name), 'utf8');
        expect(text.match(/new RegExp\("[^"]*\\\\[pP]\{[^"]*"/)?.[0], `${dir}/${name}`).toBeUndefined();
      }
    }
  });
});
