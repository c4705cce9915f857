import type { MemoryType } from '../../../../common/memory.js';

/**
 * The boost of MEM-4's ranking: bm25 over the segmented text, times a type weight (rule,
 * preference and procedural memories are the ones that change how the role behaves, so they
 * win a tie), times a small priority boost. One definition for both rankings: the SQL one
 * (recall-query.ts) and recall's own for whole words (recall-term-rank.ts), which must agree
 * to the last bit.
 */
export const TYPE_WEIGHTS: Record<MemoryType, number> = {
  rule: 1.3,
  preference: 1.3,
  procedural: 1.3,
  semantic: 1,
  episodic: 1,
  emotional: 1,
};

/** Priority 3 is neutral; each step above or below moves the score by 5%. */
export const PRIORITY_STEP = 0.05;

/** The largest factor a boost can give (best type, priority 5). */
export const MAX_BOOST = Math.max(...Object.values(TYPE_WEIGHTS)) * (1 + 2 * PRIORITY_STEP);

/** bm25 column weights, in the column order of memories_fts: summary, tags, cues, body. */
export const COLUMN_WEIGHTS = [3, 2, 2, 1] as const;
