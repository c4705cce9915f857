import type { StoredMemory } from '../../../../common/memory.js';
import { isSuperseded } from '../../store/memory/superseded.js';
import type { SleepPlan } from './sleep-plan.js';

/**
 * Issue 12: what apply checks about a plan's `supersede` entries beyond planProblems (which knows
 * only ids): the memory replaced must be one a user can replace — a preference, rule or other
 * standing memory, never an emotional one (MEM-5: a feeling is not an
 * instruction the next one overrides) — not already superseded, and not also merged into or
 * corrected by the same plan (both rewrite it; the result would depend on the order).
 */
export function supersedeProblems(plan: SleepPlan, existing: ReadonlyMap<string, StoredMemory>): string[] {
  const problems: string[] = [];
  const rewritten = new Set([...plan.merge.map((m) => m.target), ...plan.corrections.map((c) => c.target)]);
  for (const entry of plan.supersede ?? []) {
    const target = existing.get(entry.target);
    if (!target) continue; // planProblems reports it
    if (target.memory_type === 'emotional')
      problems.push(`${entry.target} is an emotional memory: feelings are never superseded (link them instead)`);
    if (isSuperseded(target)) problems.push(`${entry.target} is already superseded`);
    if (rewritten.has(entry.target)) problems.push(`${entry.target} is both superseded and merged into or corrected by this plan`);
  }
  return problems;
}
