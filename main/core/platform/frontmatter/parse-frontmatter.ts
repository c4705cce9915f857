import { isRefusedYaml, loadYamlGuarded } from './guarded-yaml.js';

export interface ParsedFrontmatter {
  data: Record<string, unknown>;
  body: string;
  /** False when the file had no `---` block at all. */
  hasFrontmatter: boolean;
  /** True when the block was not valid YAML and the line reader took over. */
  lenient: boolean;
}

// JSON_SCHEMA keeps dates such as `created: 2026-01-01` as the strings they were written as, so
// a rewrite never changes their format, and never turns `no`/`on` into booleans (YAML 1.1).
// Every YAML read here goes through guarded-yaml.ts: anchors refused, nesting capped (issue 14).

const FENCE = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/**
 * Files written by the original role scripts and by hand are not always strict YAML
 * (`summary: 使用者說: 好` has a second colon; a tag list may be `a, b`). When the YAML reader
 * refuses a block, each top-level key is read on its own — its line plus the indented lines
 * under it — as YAML, so block scalars (`detail: |`) and nested maps elsewhere in the file
 * survive; only a key whose own text is not YAML falls back to the line reading. Without this,
 * one odd line would turn every other multi-line value into `|` and the next rewrite would
 * save that loss.
 */
export function parseLenientBlock(block: string): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const chunk of topLevelChunks(block)) {
    const key = /^([A-Za-z_][\w-]*)\s*:/.exec(chunk[0]!)![1]!;
    const text = chunk.join('\n');
    let parsed: unknown;
    try {
      parsed = loadYamlGuarded(text);
    } catch (error) {
      // An anchor is refused, never read around: the line reading would keep the file loading.
      if (isRefusedYaml(error)) throw error;
      parsed = undefined;
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && key in parsed) {
      data[key] = (parsed as Record<string, unknown>)[key];
    } else {
      data[key] = lenientChunk(chunk);
    }
  }
  return data;
}

/** Split a frontmatter block into top-level `key:` lines, each with the lines that belong to it. */
function topLevelChunks(block: string): string[][] {
  const chunks: string[][] = [];
  for (const rawLine of block.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+$/, '');
    if (/^[A-Za-z_][\w-]*\s*:/.test(line)) chunks.push([line]);
    else if (chunks.length && (line === '' || /^\s/.test(line) || line.startsWith('- '))) chunks[chunks.length - 1]!.push(line);
    // anything else at column 0 (a comment, a stray line) belongs to no key and is skipped
  }
  return chunks;
}

/** The line reading of one key: `key: value`, possibly followed by `- item` lines. */
function lenientChunk(chunk: string[]): unknown {
  const value = lenientScalar(/^[A-Za-z_][\w-]*\s*:\s?(.*)$/.exec(chunk[0]!)![1]!.trim());
  const items = chunk
    .slice(1)
    .map((line) => /^\s*-\s+(.*)$/.exec(line)?.[1])
    .filter((item): item is string => item !== undefined);
  if (!items.length) return value;
  const list = Array.isArray(value) ? value : value === null || value === '' ? [] : [value];
  return [...list, ...items.map(unquote)];
}

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) {
    if (t.startsWith('"')) {
      try {
        return JSON.parse(t) as string;
      } catch {
        /* fall through */
      }
    }
    return t.slice(1, -1);
  }
  return t;
}

function lenientScalar(text: string): unknown {
  if (text === '' || text === '~' || text === 'null') return null;
  if (text.startsWith('[') && text.endsWith(']')) {
    try {
      const parsed = loadYamlGuarded(text);
      if (Array.isArray(parsed)) return parsed;
    } catch (error) {
      if (isRefusedYaml(error)) throw error;
      /* split by hand */
    }
    return text
      .slice(1, -1)
      .split(',')
      .map((part) => unquote(part))
      .filter((part) => part !== '');
  }
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true') return true;
  if (text === 'false') return false;
  return unquote(text);
}

/**
 * The block and the body of a text FENCE matched, split exactly as gray-matter 4 (parseMatter)
 * splits it, which is what every file so far was read with: the block runs to the first "\n---"
 * after the opening line, and the body starts after those four characters, less one "\r" and
 * then one "\n". A block of nothing but blank and `#` comment lines is no data (an empty object). gray-matter itself is no longer loaded: this code used nothing else of it
 * (the fence check is FENCE, the YAML guarded-yaml.ts), and loading it, with the js-yaml 3 it
 * brings and builds its schemas for at load, was a fifth of the hook fallback's start (X-PERF,
 * issue 17). frontmatter.test.ts holds this to gray-matter's split, edge case by edge case.
 */
function splitLikeGrayMatter(text: string): { data: unknown; body: string } {
  const rest = text.slice('---'.length);
  const close = rest.indexOf('\n---'); // there is one: FENCE matched
  const block = rest.slice(0, close);
  let body = rest.slice(close + '\n---'.length);
  if (body.startsWith('\r')) body = body.slice(1);
  if (body.startsWith('\n')) body = body.slice(1);
  const blank = block.replace(/^\s*#[^\n]+/gm, '').trim() === '';
  // And a block YAML reads as null (`~`) is an empty object too, as gray-matter made it.
  return { data: blank ? {} : (loadYamlGuarded(block) ?? {}), body };
}

/**
 * Read a file's `---` front matter and body. Throws an Error with a readable message when the
 * block is never closed, and a RefusedYamlError (guarded-yaml.ts) when it uses a YAML anchor:
 * every reader of memory and role files reports such a file by path and skips it, so a refused
 * file is never loaded and therefore never rewritten.
 */
export function parseFrontmatter(source: string): ParsedFrontmatter {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (!text.startsWith('---')) return { data: {}, body: text, hasFrontmatter: false, lenient: false };
  // gray-matter read an unclosed block as "all of the file is frontmatter"; for a memory that
  // silently drops the body, so a missing closing fence is reported as a broken file instead.
  const fence = FENCE.exec(text);
  if (!fence) throw new Error('the frontmatter block opened with "---" is never closed (add a "---" line after the fields)');
  try {
    const { data, body } = splitLikeGrayMatter(text);
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      return { data: data as Record<string, unknown>, body, hasFrontmatter: true, lenient: false };
    }
  } catch (error) {
    if (isRefusedYaml(error)) throw error;
    /* not YAML: read it line by line below */
  }
  return { data: parseLenientBlock(fence[1] ?? ''), body: text.slice(fence[0].length), hasFrontmatter: true, lenient: true };
}
