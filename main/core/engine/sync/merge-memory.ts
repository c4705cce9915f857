import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { stringifyFrontmatter } from '../../platform/frontmatter/stringify-frontmatter.js';

/**
 * One memory file changed on two machines (X-SYNC). What recall and sleep change on their own —
 * hits, last_replayed, updated, strength, tags/cues/links/relevance — merges field by field, so
 * two machines recalling the same memory never make a conflict. The body merges line by line
 * (git's own 3-way text merge, passed in). When the same field or the same lines were changed to
 * different things, the result is ours untouched and `conflict` is true: the caller keeps theirs
 * as a separate, linked memory. A conflict marker never lands in a memory file.
 */
export type TextMerge = (base: string, ours: string, theirs: string) => string | undefined;

export interface MemoryMerge {
  text: string;
  conflict: boolean;
}

const COUNTED = new Set(['hits']);
const LATEST = new Set(['updated', 'last_replayed']);
const LARGEST = new Set(['strength']);
const SETS = new Set(['tags', 'cues', 'links', 'relevance']);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const num = (v: unknown) => (typeof v === 'number' ? v : Number(v) || 0);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v]);

function unionSet(b: unknown, o: unknown, t: unknown): unknown[] {
  const base = list(b).map(String);
  const ours = list(o).map(String);
  const theirs = list(t).map(String);
  const dropped = new Set(base.filter((x) => !ours.includes(x) || !theirs.includes(x)));
  return [...new Set([...ours, ...theirs])].filter((x) => !dropped.has(x));
}

function latest(o: unknown, t: unknown): unknown {
  const to = Date.parse(String(o ?? ''));
  const tt = Date.parse(String(t ?? ''));
  if (Number.isNaN(to)) return Number.isNaN(tt) ? (o ?? t) : t;
  if (Number.isNaN(tt)) return o;
  return tt > to ? t : o;
}

/** Field-by-field frontmatter merge; undefined when a plain field differs on both sides. */
function mergeData(
  b: Record<string, unknown>,
  o: Record<string, unknown>,
  t: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const key of [...new Set([...Object.keys(o), ...Object.keys(t)])]) {
    const [bv, ov, tv] = [b[key], o[key], t[key]];
    let value: unknown;
    if (same(ov, tv)) value = ov;
    else if (COUNTED.has(key)) value = Math.max(0, num(ov) + num(tv) - num(bv));
    else if (LATEST.has(key)) value = latest(ov, tv);
    else if (LARGEST.has(key)) value = Math.max(num(ov), num(tv));
    else if (SETS.has(key)) value = unionSet(bv, ov, tv);
    else if (same(ov, bv)) value = tv;
    else if (same(tv, bv)) value = ov;
    else return undefined;
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export function mergeMemoryText(base: string, ours: string, theirs: string, mergeText: TextMerge): MemoryMerge {
  if (ours === theirs || theirs === base) return { text: ours, conflict: false };
  if (ours === base) return { text: theirs, conflict: false };
  let parsed;
  try {
    parsed = [parseFrontmatter(base), parseFrontmatter(ours), parseFrontmatter(theirs)] as const;
  } catch {
    return { text: ours, conflict: true }; // a side is not a readable memory: keep both whole
  }
  const [b, o, t] = parsed;
  const data = mergeData(b.data, o.data, t.data);
  const trim = (body: string) => body.replace(/^\r?\n+/, '');
  const [bb, ob, tb] = [trim(b.body), trim(o.body), trim(t.body)];
  const body = ob === tb || tb === bb ? ob : ob === bb ? tb : mergeText(bb, ob, tb);
  if (!data || body === undefined) return { text: ours, conflict: true };
  return { text: stringifyFrontmatter(data, body), conflict: false };
}
