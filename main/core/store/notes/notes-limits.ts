import { groupDigits } from '../../platform/text/group-digits.js';

/**
 * The write limits of DSH-1 and DSH-2 (facts: lines + bytes; project memory: characters), all
 * enforced on the write side: over the limit is an error, nothing is written, never a silent cut.
 * Design notes: docs/design-notes.md, "main/core/store/notes/notes-limits.ts".
 */
export const FACT_MAX_LINES = 100;
export const FACT_MAX_BYTES = 8000;
export const PROJECT_MEMORY_MAX_CHARS = 8000;

/** DSH-1: normalise `\r\n` to `\n` first, as the notes skill's countLines() does, so `\r` never counts. */
function normalizeNewlines(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/**
 * Lines of FACT.md as a person (and `wc -l` on a file that ends with a newline) counts them: a
 * trailing newline ends the last line, it does not start a new one. So `"a\nb\n"` and `"a\nb"` are
 * 2 lines, `"a\n\n"` is 2 (the second one empty), `"\n"` is 1 and `""` is 0. The notes skill names a
 * countLines() without defining this edge; the choice here means a file saved by an editor (which
 * adds the final newline) is not charged a phantom 101st line.
 */
export function countFactLines(text: string): number {
  const normalized = normalizeNewlines(text);
  if (normalized === '') return 0;
  const parts = normalized.split('\n').length;
  return normalized.endsWith('\n') ? parts - 1 : parts;
}

/** UTF-8 bytes after `\r\n` → `\n` (the notes skill: UTF-8, 3 bytes per Chinese character); the final newline is a byte like any other. */
export function countFactBytes(text: string): number {
  return Buffer.byteLength(normalizeNewlines(text), 'utf8');
}

/**
 * Characters of a project MEMORY.md. DSH-2: the length after trim(), `\r\n`
 * counting 2 with no normalising, a Chinese character counting 1 (3000 hanzi = 3000 characters). Kioku counts Unicode code points of
 * the trimmed text: the same as the notes skill's JS string length for every character in the Basic
 * Multilingual Plane (all common Chinese), but an emoji or a rare CJK Extension-B character counts
 * as the one character a person sees, not as two UTF-16 halves. Kioku never cuts the file on
 * injection (it is left out whole, CTX-3), so nothing depends on matching a JS `.length`.
 */
export function countProjectMemoryChars(text: string): number {
  let count = 0;
  for (const _ of text.trim()) count++;
  return count;
}

export interface FactsUsage {
  lines: number;
  maxLines: number;
  bytes: number;
  maxBytes: number;
  /** Which limits the text is over (empty when it may be written). */
  over: Array<'lines' | 'bytes'>;
}

export function measureFacts(text: string): FactsUsage {
  const lines = countFactLines(text);
  const bytes = countFactBytes(text);
  const over: FactsUsage['over'] = [];
  if (lines > FACT_MAX_LINES) over.push('lines');
  if (bytes > FACT_MAX_BYTES) over.push('bytes');
  return { lines, maxLines: FACT_MAX_LINES, bytes, maxBytes: FACT_MAX_BYTES, over };
}

export interface ProjectMemoryUsage {
  chars: number;
  maxChars: number;
  over: boolean;
}

export function measureProjectMemory(text: string): ProjectMemoryUsage {
  const chars = countProjectMemoryChars(text);
  return { chars, maxChars: PROJECT_MEMORY_MAX_CHARS, over: chars > PROJECT_MEMORY_MAX_CHARS };
}

/** `37/100 行，2,410/8,000 位元組` — the read report of DSH-1 (lines used / limit, bytes used / limit). */
export function factsUsageText(usage: FactsUsage): string {
  const n = groupDigits;
  return `${n(usage.lines)}/${n(usage.maxLines)} 行，${n(usage.bytes)}/${n(usage.maxBytes)} 位元組`;
}

export function projectMemoryUsageText(usage: ProjectMemoryUsage): string {
  const n = groupDigits;
  return `${n(usage.chars)}/${n(usage.maxChars)} 字元`;
}
