import type { KiokuConfig } from '../../../platform/config/config.js';
import { PlannerError, type CollectedBatch, type Planner, type SleepPlan } from '../sleep-plan.js';
import { buildLocalPlan } from './build-plan.js';
import { ExistingIndex } from './existing-index.js';
import { redactedBatch } from './redacted-batch.js';

/**
 * X-LOCAL: the built-in planner that consolidates without any LLM — deterministic and free, used
 * when no planner CLI is found (SLEEP-6). See build-plan.ts for what one plan holds.
 *
 * The planner keeps a cache of existing-memory features across the batches of one consolidation
 * (existing-index.ts); it changes how fast a plan is made, never what it says. Time comes only
 * from config.clock (KIOKU_NOW in tests).
 */
export function createLocalPlanner(config: KiokuConfig): Planner {
  const index = new ExistingIndex();
  return {
    name: 'local',
    plan(batch: CollectedBatch, planId: string, signal?: AbortSignal): Promise<SleepPlan> {
      if (signal?.aborted) {
        const diagnostics = { materialChars: batch.materialChars, outputChars: 0, batchSize: batch.items.length, outputHead: '' };
        return Promise.reject(new PlannerError('execution', 'the consolidation was cancelled before the local planner ran', diagnostics));
      }
      // Derived tags and cues must come from redacted words (redacted-batch.ts).
      return redactedBatch(batch).then((redacted) => buildLocalPlan(redacted, planId, config.clock.now(), index));
    },
  };
}

export { explainCandidates, type CandidateExplanation } from './explain-candidates.js';
export type { CandidateRule, RuleHit, SuggestedKind } from './candidate-rules.js';
