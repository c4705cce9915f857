import type { StoredMemory } from '../../../../common/memory.js';
import { redactSync } from '../../platform/privacy/redact-sync.js';
import { supersedeProblems } from './supersede-validation.js';
import { PlannerError, planProblems, sleepPlanSchema, type CollectedBatch, type PlannerFailureKind, type SleepPlan } from './sleep-plan.js';

/**
 * apply's first step: a plan is checked against the batch it was made for and the memories that
 * really exist before anything is recorded or written. A plan that fails is the planner's failure
 * (a PlannerError, so the orchestrator retries and halves as for any other, SLEEP-5) and the
 * inbox stays as it is.
 */
function fail(kind: PlannerFailureKind, message: string, raw: unknown, batch: CollectedBatch): PlannerError {
  let output = '';
  try {
    output = JSON.stringify(raw) ?? String(raw);
  } catch {
    output = String(raw);
  }
  return new PlannerError(kind, message, {
    materialChars: batch.materialChars,
    outputChars: output.length,
    batchSize: batch.items.length,
    outputHead: redactSync(output.slice(0, 200)),
  });
}

/**
 * MEM-5 and the issue's must-show ("emotional memories never merged into
 * preferences"): an emotional inbox item never merges into a memory of another type, and
 * nothing of another type merges into an emotional memory. Planners check this too; apply does
 * not take their word for it.
 */
function emotionalMergeProblems(plan: SleepPlan, batch: CollectedBatch, existing: ReadonlyMap<string, StoredMemory>): string[] {
  const problems: string[] = [];
  const typeOf = new Map(batch.items.map((item) => [item.id, item.memory_type]));
  for (const merge of plan.merge) {
    const target = existing.get(merge.target);
    if (!target) continue;
    for (const source of merge.sources) {
      const type = typeOf.get(source);
      if (type === undefined) continue;
      if ((type === 'emotional') !== (target.memory_type === 'emotional')) {
        problems.push(
          `merge of ${source} (${type}) into ${merge.target} (${target.memory_type}): emotional memories are never merged with other types (link them instead)`,
        );
      }
    }
  }
  return problems;
}

export function validatePlan(
  raw: unknown,
  expected: { planId: string; batch: CollectedBatch },
  existing: ReadonlyMap<string, StoredMemory>,
): SleepPlan {
  const { batch, planId } = expected;
  const parsed = sleepPlanSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(plan)'}: ${issue.message}`);
    throw fail('invalid', `the plan does not match the plan schema: ${issues.join('; ')}`, raw, batch);
  }
  const plan = parsed.data;
  const problems: string[] = [];
  if (plan.id !== planId) problems.push(`plan id is "${plan.id}", expected "${planId}"`);
  if (plan.role !== batch.role) problems.push(`plan is for role ${plan.role}, the batch is ${batch.role}'s`);
  const collected = batch.items.map((item) => item.id);
  const named = new Set(plan.batch);
  if (named.size !== collected.length || collected.some((id) => !named.has(id)) || plan.batch.length !== collected.length) {
    problems.push(`plan.batch (${plan.batch.join(', ')}) is not the collected batch (${collected.join(', ')})`);
  }
  problems.push(...planProblems(plan, new Set(existing.keys())));
  // Merges and corrections are absolute: two of them for one target would each overwrite the other.
  for (const [what, targets] of [
    ['merges', plan.merge.map((m) => m.target)],
    ['corrections', plan.corrections.map((c) => c.target)],
  ] as const) {
    const seen = new Set<string>();
    for (const target of targets) {
      if (seen.has(target)) problems.push(`two ${what} name ${target}; put their sources in one`);
      seen.add(target);
    }
  }
  problems.push(...emotionalMergeProblems(plan, batch, existing));
  problems.push(...supersedeProblems(plan, existing));
  if (problems.length) {
    const listed = problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; +${problems.length - 5} more` : '');
    throw fail('incomplete', `the plan cannot be applied: ${listed}`, raw, batch);
  }
  return plan;
}
