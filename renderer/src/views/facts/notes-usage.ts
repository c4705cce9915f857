import type { FactsUsageView, ProjectMemoryUsageView } from '../../../../common/ui-contract.js';

/**
 * The editors' live counters, counted exactly as main counts on save (main/core/store/notes/notes-limits.ts;
 * dsh-usage.test.ts holds the two side by side): FACT.md by lines and UTF-8 bytes after
 * `\r\n` → `\n`, a final newline ending the last line rather than starting a new one; MEMORY.md
 * by the code points of the trimmed text. Main measures again after cleaning (PRIV-1/2) and has
 * the last word; these only let the editor say "over the limit" before the user presses Save.
 */
export const FACT_LIMITS = { lines: 100, bytes: 8000 } as const;
export const PROJECT_MEMORY_LIMIT = 8000;

const encoder = new TextEncoder();

export function measureFactsText(text: string): FactsUsageView {
  const normalized = text.replace(/\r\n/g, '\n');
  const parts = normalized === '' ? 0 : normalized.split('\n').length;
  const lines = normalized.endsWith('\n') ? parts - 1 : parts;
  const bytes = encoder.encode(normalized).length;
  const over: FactsUsageView['over'] = [];
  if (lines > FACT_LIMITS.lines) over.push('lines');
  if (bytes > FACT_LIMITS.bytes) over.push('bytes');
  return { lines, maxLines: FACT_LIMITS.lines, bytes, maxBytes: FACT_LIMITS.bytes, over };
}

export function measureProjectMemoryText(text: string): ProjectMemoryUsageView {
  let chars = 0;
  for (const _ of text.trim()) chars++;
  return { chars, maxChars: PROJECT_MEMORY_LIMIT, over: chars > PROJECT_MEMORY_LIMIT };
}

/** How full a counter is: `ok`, `near` (90 % or more: the warning colour) or `over`. */
export type UsageLevel = 'ok' | 'near' | 'over';

export function usageLevel(value: number, max: number): UsageLevel {
  if (value > max) return 'over';
  return value >= max * 0.9 ? 'near' : 'ok';
}
