import type { StoredMemory } from '../../../../common/memory.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { applyPending, type AppliedPlan, type ApplyHooks } from './apply-plan.js';
import type { CatalogSnapshot, MemoryCatalog } from './memory-catalog.js';
import { listPending } from './pending-plans.js';

/**
 * "On start of any consolidation, replay every pending plan for that role first": a plan left
 * pending by a crash holds inbox items that a new collect would otherwise plan again. Oldest
 * first; the caller holds the role's memory lock.
 */
export function existingById(snapshot: CatalogSnapshot): Map<string, StoredMemory> {
  const byId = new Map<string, StoredMemory>();
  for (const memory of snapshot.consolidated) if (memory.id && !byId.has(memory.id)) byId.set(memory.id, memory);
  return byId;
}

export async function replayPendingPlans(
  config: KiokuConfig,
  role: string,
  catalog: MemoryCatalog,
  hooks?: ApplyHooks,
): Promise<{ applied: AppliedPlan[]; problems: string[] }> {
  const pending = listPending(config.paths.memoryHome, role);
  const applied: AppliedPlan[] = [];
  for (const plan of pending.plans)
    applied.push(await applyPending(config, role, plan, existingById(catalog.snapshot()), { ...hooks, catalog }));
  return { applied, problems: pending.problems };
}
