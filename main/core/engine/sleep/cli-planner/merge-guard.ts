import { CATEGORIES, MEMORY_TYPES, type ConsolidatedCategory, type MemoryType } from '../../../../../common/memory.js';
import type { CollectedBatch, PlanCreate, PlanMerge, SleepPlan } from '../sleep-plan.js';

/**
 * Holds the merges a model proposed to the two rules it may forget (MEM-5 types, MEM-8 expiry).
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/cli-planner/merge-guard.ts".
 */
export interface GuardedMerges {
  plan: SleepPlan;
  /** What was changed, for the log. */
  notes: string[];
  /** Merges that could not be kept or converted (the plan must be rejected). */
  problems: string[];
}

const IMPLICIT: readonly MemoryType[] = ['procedural', 'emotional'];

function uniqueKey(wanted: string, taken: Set<string>): string {
  let key = wanted;
  for (let n = 2; taken.has(key); n++) key = `${wanted}-${n}`;
  taken.add(key);
  return key;
}

function asCreate(merge: PlanMerge, key: string, category: ConsolidatedCategory, type: MemoryType): PlanCreate {
  return {
    key,
    category,
    summary: merge.summary,
    body: merge.body,
    tags: merge.tags,
    priority: type === 'emotional' ? Math.max(4, merge.priority) : merge.priority,
    cues: merge.cues,
    memory_type: type,
    declarative: IMPLICIT.includes(type) ? 'implicit' : 'explicit',
    relevance: type === 'emotional' ? ['emotional'] : [],
    expires: '',
    links: [...new Set([...merge.links, merge.target])],
    sources: merge.sources,
  };
}

export function guardMerges(plan: SleepPlan, batch: CollectedBatch, mergeable: ReadonlySet<string>): GuardedMerges {
  const typeOf = new Map(batch.items.map((item) => [item.id, item.memory_type]));
  const refs = new Map(batch.existing.map((ref) => [ref.id, ref]));
  const keys = new Set(plan.create.map((c) => c.key));
  const merge: PlanMerge[] = [];
  const create: PlanCreate[] = [...plan.create];
  const notes: string[] = [];
  const problems: string[] = [];
  for (const m of plan.merge) {
    const target = refs.get(m.target);
    const types = [...new Set(m.sources.map((s) => typeOf.get(s) ?? ''))];
    const sameType = target !== undefined && types.length === 1 && types[0] === target.memory_type;
    if (sameType && mergeable.has(m.target)) {
      merge.push(m);
      continue;
    }
    if (types.length !== 1 || !types[0]) {
      problems.push(
        `merge into ${m.target} mixes memory types (${m.sources.map((s) => `${s}: ${typeOf.get(s) ?? '?'}`).join(', ')}); different types are never merged`,
      );
      continue;
    }
    // An inbox item with a type Kioku does not know (hand-edited) is filed as semantic.
    const type: MemoryType = (MEMORY_TYPES as readonly string[]).includes(types[0]) ? (types[0] as MemoryType) : 'semantic';
    const category = (CATEGORIES as readonly string[]).includes(target?.category ?? '')
      ? (target!.category as ConsolidatedCategory)
      : 'other';
    const key = uniqueKey(`m-${m.target}`, keys);
    create.push(asCreate(m, key, category, type));
    notes.push(
      sameType
        ? `merge into ${m.target} kept as new memory ${key} linked to it (the target's full body was not in the prompt)`
        : `merge of ${type} into ${m.target} (${target?.memory_type ?? 'unknown'}) kept as new memory ${key} linked to it (different memory types are never merged)`,
    );
  }
  return { plan: { ...plan, create, merge }, notes, problems };
}
