import type { Memory } from '../../../../common/memory.js';

/**
 * Issue 12: a preference or rule the user replaced is kept for history but is no longer current.
 * Design notes: docs/design-notes.md, "main/core/store/memory/superseded.ts".
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
