import type { Memory } from '../../../../common/memory.js';

/**
 * Issue 12: a preference or rule the user replaced ("改用 pnpm 了，不要再用 yarn") is kept for
 * history but is no longer current. Consolidation marks the older memory with
 * `superseded_by: <id of the memory that replaced it>` (and `superseded_at`), and labels its
 * summary so that every reader that shows summaries — recall, search, the app — shows it as past.
 * Context assembly never injects it as current (memory-selection.ts), and collect no longer offers
 * it to planners as something to merge into.
 */
export const SUPERSEDED_BY = 'superseded_by';
export const SUPERSEDED_AT = 'superseded_at';
/** Prefixed to a superseded memory's summary (recall lists summaries). */
export const SUPERSEDED_LABEL = '〔已更正〕';

export function supersededBy(memory: Pick<Memory, 'extra'>): string | undefined {
  const value = memory.extra?.[SUPERSEDED_BY];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

export function isSuperseded(memory: Pick<Memory, 'extra'>): boolean {
  return supersededBy(memory) !== undefined;
}

/** The summary as a superseded memory shows it: labelled once. */
export function supersededSummary(summary: string): string {
  const text = summary.trim();
  return text.startsWith(SUPERSEDED_LABEL) ? text : `${SUPERSEDED_LABEL}${text}`;
}
