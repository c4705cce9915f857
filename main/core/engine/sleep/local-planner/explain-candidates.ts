import { parseLooseDate } from '../../../platform/config/clock.js';
import type { CollectedBatch } from '../sleep-plan.js';
import { analyseBatch } from './analyse-batch.js';
import type { RuleHit, SuggestedKind } from './candidate-rules.js';
import { NOISE_REASONS } from './noise.js';

/**
 * PM-3 "shown in the UI": which candidate rules fired for each inbox item of a batch and why,
 * computed exactly as the local planner computes them (same analysis, same numbers).
 */
export interface CandidateExplanation {
  id: string;
  summary: string;
  salience: number;
  emotionChange: number;
  rules: RuleHit[];
  /** Seed 001's suggested kind (promise, boundary, relationship, preference, event, fact). */
  suggested?: SuggestedKind;
  /** Set when the item would be discarded as noise or evicted under capacity pressure (R6). */
  discard?: string;
}

/**
 * `now` decides which items are "today's" (R6 never evicts them). Without it the newest item's
 * day stands in, so that the answer never depends on when it is asked.
 */
export function explainCandidates(batch: CollectedBatch, now?: Date): CandidateExplanation[] {
  const newest = batch.items
    .map((item) => parseLooseDate(item.created))
    .filter((date): date is Date => Boolean(date))
    .sort((a, b) => b.getTime() - a.getTime())[0];
  const at = now ?? newest ?? new Date(0);
  return analyseBatch(batch, at).items.map((item) => ({
    id: item.item.id,
    summary: item.item.summary,
    salience: item.salience,
    emotionChange: item.emotion.change,
    rules: item.hits,
    ...(item.kind ? { suggested: item.kind } : {}),
    ...(item.noise ? { discard: NOISE_REASONS[item.noise] } : item.evict ? { discard: item.evict } : {}),
  }));
}
