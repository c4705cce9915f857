// An esbuild plugin for the bundles a hook or a recall loads at every start: regular expression
// literals and String.raw templates written with non-ASCII characters (CJK punctuation,
// 工作階段…) are rewritten in ASCII as the sources are loaded. Design notes: docs/design-notes.md,
// "scripts/ascii-regex-plugin.mjs".
//
// Why: esbuild escapes non-ASCII characters in strings and templates (charset ascii, its default)
// but leaves regular expression literals and raw templates as written. One such character makes
// the whole bundle a two-byte string for V8 — decoded from UTF-8 on every read, twice the memory,
// slower to scan — and `kioku memory recall` without the daemon loads a 190 KB bundle on every
// call: about 0.8 ms of each (issue 17, measured side by side in the design notes). The sources
// keep their readable literals; only what is bundled changes.
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

/**
 * One piece of a `String.raw` template's text (between its backquotes and substitutions) in ASCII,
 * with the same value: each run of non-ASCII characters becomes a substitution of an escaped
 * string, `${"\u5c31"}`, which String.raw joins in as the characters themselves (escaping them in
 * the raw text would give backslashes and hex digits instead). A backslash that escapes such a
 * character is raw text of its own and moves into the string, so that it cannot escape the `$`.
 */
export function escapeRawTemplateText(text) {
  let out = '';
  let run = '';
  let backslashes = 0;
  const flush = () => {
    if (run) out += '${"' + run + '"}';
    run = '';
  };
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      flush();
      out += text[i];
      backslashes = text[i] === '\\' ? backslashes + 1 : 0;
      continue;
    }
    if (backslashes % 2 === 1) {
      out = out.slice(0, -1);
      run += '\\\\';
    }
    run += hex4(unit);
    backslashes = 0;
  }
  flush();
  return out;
}

const isStringRaw = (node) =>
  ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'String' && node.name.text === 'raw';

/** The text parts of a template literal, as [start, end) offsets between its delimiters. */
function templateTextParts(template, source) {
  const part = (node, headLength, tailLength) => [node.getStart(source) + headLength, node.end - tailLength];
  if (template.kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) return [part(template, 1, 1)];
  return [
    part(template.head, 1, 2),
    ...template.templateSpans.map((span) => part(span.literal, 1, span.literal.kind === ts.SyntaxKind.TemplateTail ? 1 : 2)),
  ];
}

/** `text` (TypeScript or JavaScript) with its regular expression literals and String.raw templates escaped as above. */
export function escapeRegexLiterals(text, fileName) {
  if (!NON_ASCII.test(text)) return text;
  const kind = /\.[cm]?tsx?$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const edits = [];
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const start = node.getStart(source);
      if (NON_ASCII.test(text.slice(start, node.end))) edits.push([start, node.end, escapeRegexLiteral]);
      return;
    }
    if (ts.isTaggedTemplateExpression(node) && isStringRaw(node.tag)) {
      for (const [start, end] of templateTextParts(node.template, source))
        if (NON_ASCII.test(text.slice(start, end))) edits.push([start, end, escapeRawTemplateText]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = text;
  // Last first: the offsets before an edit stay as they were.
  for (const [start, end, escape] of edits.sort((a, b) => b[0] - a[0]))
    out = out.slice(0, start) + escape(out.slice(start, end)) + out.slice(end);
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
