import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type { DigestDetail, DigestMemoryRef } from '../../../../common/ui-contract-insight-types.js';
import { readForgettingRecord } from './forgetting-record.js';
import { pendingPlanSchema, type PendingPlan } from './pending-plans.js';
import { appliedDir, pendingDir, planFileName } from './sleep-paths.js';

/**
 * What one digest entry's consolidation did, memory by memory (the sleep history opens a digest
 * into these lists): from the plan recorded in `.sleep/applied/` (created, merged, corrected,
 * superseded, discarded) or from a forgetting record (forgotten). `memory(id)` says what the
 * memory is now, so a link is offered only to one that still exists.
 */
export type MemoryNow = (id: string) => { summary: string } | undefined;

function readPlanRecord(memoryHome: string, role: string, planId: string): PendingPlan | undefined {
  for (const dir of [appliedDir(memoryHome, role), pendingDir(memoryHome, role)]) {
    const file = path.join(dir, planFileName(planId));
    try {
      return pendingPlanSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    } catch {
      /* not there (only the last 50 are kept), or not readable: try the next place */
    }
  }
  return undefined;
}

function notKept(role: string, record: string): KiokuError {
  return new KiokuError('NOT_FOUND', `the record ${record} of ${role} is no longer kept`, {
    hint: 'only the last 50 consolidations keep their lists; the digest text and counts are all there is for older ones',
  });
}

export function readDigestDetail(memoryHome: string, role: string, record: string, memory: MemoryNow): DigestDetail {
  const [kind, id = ''] = record.split(/:(.*)/s);
  const ref = (memoryId: string, summary: string): DigestMemoryRef => {
    const now = memory(memoryId);
    return { id: memoryId, summary: now?.summary ?? summary, exists: Boolean(now) };
  };
  const empty = { role, record, created: [], merged: [], corrected: [], superseded: [], discarded: [], forgotten: [] };
  if (kind === 'forgetting') {
    const found = readForgettingRecord(memoryHome, role, id);
    if (!found) throw notKept(role, record);
    return { ...empty, ...(found.reason ? { reason: found.reason } : {}), forgotten: found.forgotten };
  }
  const pending = readPlanRecord(memoryHome, role, id);
  if (!pending) throw notKept(role, record);
  const { plan } = pending;
  // Older records have no createdIds: their created memories are listed by summary, without a link.
  const createdIdOf = new Map(plan.create.map((create, i) => [create.key, pending.createdIds?.[i]]));
  return {
    ...empty,
    ...(pending.reason ? { reason: pending.reason } : {}),
    planner: plan.planner,
    created: plan.create.map((create) => {
      const createdId = createdIdOf.get(create.key);
      return createdId ? ref(createdId, create.summary) : { id: '', summary: create.summary, exists: false };
    }),
    merged: plan.merge.map((merge) => ref(merge.target, merge.summary)),
    corrected: plan.corrections.map((correction) => ref(correction.target, correction.summary)),
    superseded: (plan.supersede ?? []).map((entry) => ({
      ...ref(entry.target, entry.reason || entry.target),
      by: createdIdOf.get(entry.by) ?? entry.by,
    })),
    discarded: plan.discard.map((entry) => ({ source: entry.source, reason: entry.reason })),
  };
}
