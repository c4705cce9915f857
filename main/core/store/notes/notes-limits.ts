/**
 * The write limits of seed 002 (dsh-persona-memory) §寫入體量硬上限（全局行數 + 字節，項目字符）:
 * "都在寫入側卡住（超限拋錯拒絕，不落盤，絕不靜默截斷）". Pure measuring, no I/O, so the hook
 * client, the CLI, the MCP server and the UI all count the same way.
 *
 * | file                 | limit                         | why (seed 002)                                   |
 * | -------------------- | ----------------------------- | ------------------------------------------------ |
 * | global FACT.md       | 100 lines AND 8000 UTF-8 bytes | injected into every main session: worst case fixed |
 * | project MEMORY.md    | 8000 characters               | the same measure as the injection side            |
 * | JOURNAL.jsonl        | none (on purpose)             | never injected; where long notes go               |
 */
export const FACT_MAX_LINES = 100;
export const FACT_MAX_BYTES = 8000;
export const PROJECT_MEMORY_MAX_CHARS = 8000;

/** Seed 002 §全局 FACT.md: "先做 \r\n → \n 歸一化（與 countLines() 同口徑，不把 \r 算進去）". */
function normalizeNewlines(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/**
 * Lines of FACT.md as a person (and `wc -l` on a file that ends with a newline) counts them: a
 * trailing newline ends the last line, it does not start a new one. So `"a\nb\n"` and `"a\nb"` are
 * 2 lines, `"a\n\n"` is 2 (the second one empty), `"\n"` is 1 and `""` is 0. Seed 002 names a
 * countLines() without defining this edge; the choice here means a file saved by an editor (which
 * adds the final newline) is not charged a phantom 101st line.
 */
export function countFactLines(text: string): number {
  const normalized = normalizeNewlines(text);
  if (normalized === '') return 0;
  const parts = normalized.split('\n').length;
  return normalized.endsWith('\n') ? parts - 1 : parts;
}

/** UTF-8 bytes after `\r\n` → `\n` (seed 002: "UTF-8（中文 3 字節/字）"); the final newline is a byte like any other. */
export function countFactBytes(text: string): number {
  return Buffer.byteLength(normalizeNewlines(text), 'utf8');
}

/**
 * Characters of a project MEMORY.md. Seed 002 §項目 MEMORY.md: "取 trim() 後的 … 長度，\r\n 按 2
 * 個字符算、不做歸一化 … 中文按字符算（3000 個漢字 = 3000 字符）". Kioku counts Unicode code points of
 * the trimmed text: the same as seed 002's JS string length for every character in the Basic
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

/** `37/100 行，2,410/8,000 位元組` — the read report of seed 002 ("當前行數 / 上限，當前字節 / 上限"). */
export function factsUsageText(usage: FactsUsage): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return `${n(usage.lines)}/${n(usage.maxLines)} 行，${n(usage.bytes)}/${n(usage.maxBytes)} 位元組`;
}

export function projectMemoryUsageText(usage: ProjectMemoryUsage): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return `${n(usage.chars)}/${n(usage.maxChars)} 字元`;
}
