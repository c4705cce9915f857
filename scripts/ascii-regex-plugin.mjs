// An esbuild plugin for the bundles a hook or a recall loads at every start: regular expression
// literals written with non-ASCII characters (CJK punctuation, 工作階段…) are rewritten with \u
// escapes as the sources are loaded. Design notes: docs/design-notes.md, "scripts/ascii-regex-plugin.mjs".
//
// Why: esbuild escapes non-ASCII characters in strings and templates (charset ascii, its default)
// but leaves regular expression literals as written. One such character makes the whole bundle
// a two-byte string for V8 — decoded from UTF-8 on every read, twice the memory, slower to scan —
// and `kioku memory recall` without the daemon loads a 190 KB bundle on every call: about 0.8 ms
// of each (issue 17, measured side by side in the design notes). The sources keep their readable
// literals; only what is bundled changes.
import { readFile } from 'node:fs/promises';
import ts from 'typescript';

const NON_ASCII = /[^\x00-\x7f]/;

const hex4 = (unit) => `\\u${unit.toString(16).padStart(4, '0')}`;

/**
 * One regular expression literal's text with every non-ASCII UTF-16 unit written as `\uXXXX`.
 * The same pattern, flags or not: `\uXXXX` is that unit in a pattern without `u`, and in one with
 * `u` (or `v`) a lead and a trail surrogate escaped side by side are the one code point they make.
 * A non-ASCII character after a lone backslash (an identity escape, allowed without `u`) loses the
 * backslash: `\。` and `\u3002` match the same.
 */
export function escapeRegexLiteral(literal) {
  let out = '';
  let backslashes = 0;
  for (let i = 0; i < literal.length; i++) {
    const unit = literal.charCodeAt(i);
    if (unit < 0x80) {
      out += literal[i];
      backslashes = literal[i] === '\\' ? backslashes + 1 : 0;
      continue;
    }
    if (backslashes % 2 === 1) out = out.slice(0, -1);
    out += hex4(unit);
    backslashes = 0;
  }
  return out;
}

/** `text` (TypeScript or JavaScript) with its regular expression literals escaped as above. */
export function escapeRegexLiterals(text, fileName) {
  if (!NON_ASCII.test(text)) return text;
  const kind = /\.[cm]?tsx?$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const literals = [];
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const start = node.getStart(source);
      if (NON_ASCII.test(text.slice(start, node.end))) literals.push([start, node.end]);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = text;
  for (const [start, end] of literals.reverse()) out = out.slice(0, start) + escapeRegexLiteral(out.slice(start, end)) + out.slice(end);
  return out;
}

export const asciiRegexLiterals = {
  name: 'ascii-regex-literals',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const escaped = escapeRegexLiterals(text, args.path);
      // Unchanged: esbuild loads the file as it would have.
      if (escaped === text) return undefined;
      return { contents: escaped, loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js' };
    });
  },
};
