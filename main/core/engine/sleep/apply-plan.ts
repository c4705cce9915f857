import fs from 'node:fs';
import path from 'node:path';
import { CATEGORIES, MEMORY_TYPES, type MemoryType, type StoredMemory } from '../../../../common/memory.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { appendBond } from '../../store/memory/bonds.js';
import { appendDigest, digestsFile } from '../../store/memory/digests.js';
import { categoryDir, roleMemoryDir } from '../../store/memory/memory-layout.js';
import { updateMemoryState } from '../../store/memory/memory-state.js';
import {
  addLinks,
  applyCorrection,
  applyMerge,
  mergeAsCreate,
  planEdges,
  resolveCreatedTargets,
  writeCreated,
  type ApplyContext,
} from './apply-memories.js';
import { archiveRawItem } from './archive-raw.js';
import { applySupersede } from './apply-supersede.js';
import { inboxProjectFields, sourceProjectFields } from './consolidation-project.js';
import { DeferredWrites } from './deferred-writes.js';
import { MemoryCatalog } from './memory-catalog.js';
import { keepSourceGrants } from './keep-grants.js';
import { fileHash, finishPending, newPendingPlan, pendingPlanSchema, writePending, type PendingPlan } from './pending-plans.js';
import { cleanPlanForStorage } from './plan-text-cleaner.js';
import { validatePlan } from './plan-validation.js';
import { appliedDir, pendingDir, planFileName, rawArchiveDir } from './sleep-paths.js';
import type { CollectedBatch } from './sleep-plan.js';

/**
 * apply (SLEEP-4): a validated plan → file changes, deterministic and crash-safe.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/apply-plan.ts".
 */
export interface ApplyHooks {
  /** Called after each unit of work (`pending`, `create:<key>`, `merge:<id>`, … `applied`); tests throw here to simulate a crash. */
  afterStep?(step: string): void;
  /** The orchestrator's catalog, so files it has parsed are not parsed again; default: a fresh one. */
  catalog?: MemoryCatalog;
  /** Why the run happens (manual, sleep, nap, catch-up): kept in the record and the digest. */
  reason?: string;
}

export interface AppliedPlan {
  planId: string;
  /** Inbox items consumed. */
  processed: number;
  created: number;
  merged: number;
  discarded: number;
  corrected: number;
  bondsAdded: number;
  /** Ids of the created memories. */
  createdIds: string[];
  warnings: string[];
}

function asMemoryType(value: string | undefined): MemoryType {
  return (MEMORY_TYPES as readonly string[]).includes(value ?? '') ? (value as MemoryType) : 'semantic';
}

/** Validate, clean and record a new plan, then apply it. A plan that fails validation is a PlannerError. */
export async function applyNewPlan(
  config: KiokuConfig,
  batch: CollectedBatch,
  planId: string,
  raw: unknown,
  existing: ReadonlyMap<string, StoredMemory>,
  hooks: ApplyHooks = {},
): Promise<AppliedPlan> {
  // A plan id is used once: applying a recorded plan again goes through applyPending (replay),
  // whose digest guard knows whether the digest was written; a fresh record would not.
  for (const dir of [pendingDir(config.paths.memoryHome, batch.role), appliedDir(config.paths.memoryHome, batch.role)]) {
    if (fs.existsSync(path.join(dir, planFileName(planId))))
      throw new Error(`plan ${planId} of ${batch.role} is already recorded in ${dir}; a plan id is used once`);
  }
  const valid = validatePlan(raw, { planId, batch }, existing);
  const cleaned = await cleanPlanForStorage(valid);
  // MEM-8: a grant never leaves the night as a lasting rule, whatever the planner wrote (issue 12).
  const { plan, kept } = keepSourceGrants(cleaned.plan, batch.items);
  const warnings = [...cleaned.warnings, ...kept];
  const roleDir = roleMemoryDir(config.paths.memoryHome, batch.role);
  const sources: PendingPlan['sources'] = {};
  for (const item of batch.items) {
    sources[item.id] = {
      file: path.relative(roleDir, item.path),
      memory_type: item.memory_type,
      ...(item.created ? { created: item.created } : {}),
      ...inboxProjectFields(item.path),
    };
  }
  const at = config.clock.now();
  const pending = newPendingPlan(plan, at, formatLocalIso(at), sources, warnings, hooks.reason);
  writePending(config.paths.memoryHome, batch.role, pending);
  hooks.afterStep?.('pending');
  return applyPending(config, batch.role, pending, existing, hooks);
}

/** Run (or finish) a recorded plan. Safe to call any number of times for the same plan. */
export async function applyPending(
  config: KiokuConfig,
  role: string,
  pending: PendingPlan,
  existing: ReadonlyMap<string, StoredMemory>,
  hooks: ApplyHooks = {},
): Promise<AppliedPlan> {
  const { plan } = pending;
  const memoryHome = config.paths.memoryHome;
  const step = (name: string) => hooks.afterStep?.(name);
  const writes = new DeferredWrites();
  const at = new Date(pending.atMs);
  const catalog = hooks.catalog ?? new MemoryCatalog(memoryHome, role);
  const sourceCreated = new Map(
    Object.entries(pending.sources).flatMap(([id, source]) => (source.created ? [[id, source.created] as const] : [])),
  );
  const sourceProjects = sourceProjectFields(pending.sources);
  const ctx: ApplyContext = { memoryHome, role, plan, at, iso: pending.at, sourceCreated, sourceProjects, writes, existing, catalog };
  const warnings = [...pending.warnings];

  // Created memories (their ids first, so that links can name them).
  const created = resolveCreatedTargets(ctx);
  const idOf = (ref: string) => created.get(ref)?.id ?? (existing.has(ref) ? ref : undefined);
  const edges = planEdges(plan, idOf);
  for (const create of plan.create) {
    const target = created.get(create.key)!;
    await writeCreated(ctx, create, target, edges.get(target.id) ?? []);
    step(`create:${create.key}`);
  }

  for (const merge of plan.merge) {
    if (!applyMerge(ctx, merge, edges.get(merge.target) ?? [])) {
      // The target vanished (deleted by hand since the plan was made): keep the text as a memory of its own.
      const type = asMemoryType(pending.sources[merge.sources[0] ?? '']?.memory_type);
      const target = existing.get(merge.target);
      const category =
        target && (CATEGORIES as readonly string[]).includes(target.category) ? (target.category as (typeof CATEGORIES)[number]) : 'other';
      const stand = mergeAsCreate(merge, category, type);
      const fallback = resolveCreatedTargets({ ...ctx, plan: { ...plan, create: [stand] } }).get(stand.key)!;
      await writeCreated({ ...ctx, plan: { ...plan, create: [stand] } }, stand, fallback, []);
      warnings.push(`merge target ${merge.target} is gone; its merged text was kept as ${fallback.id}`);
    }
    step(`merge:${merge.target}`);
  }

  for (const correction of plan.corrections) {
    if (!applyCorrection(ctx, correction)) warnings.push(`correction target ${correction.target} is gone; nothing to correct`);
    step(`correct:${correction.target}`);
  }

  for (const entry of plan.supersede ?? []) {
    const byId = idOf(entry.by) ?? entry.by;
    const bySummary = plan.create.find((create) => create.key === entry.by)?.summary ?? existing.get(byId)?.summary;
    if (!applySupersede(ctx, entry, byId, bySummary)) warnings.push(`superseded memory ${entry.target} is gone; nothing to mark`);
    step(`supersede:${entry.target}`);
  }

  // Merge targets got their links with the merge, created memories when they were written.
  const written = new Set([...plan.merge.map((merge) => merge.target), ...[...created.values()].map((target) => target.id)]);
  for (const [id, links] of edges) {
    const memory = existing.get(id);
    if (!memory || written.has(id)) continue;
    addLinks(ctx, memory, links);
    step(`link:${id}`);
  }

  let bondsAdded = 0;
  for (const [i, bond] of plan.bonds.entries()) {
    const result = await appendBond(config, role, { text: bond.text, direction: bond.direction });
    if (result.added) bondsAdded++;
    warnings.push(...result.warnings);
    step(`bond:${i}`);
  }

  const roleDir = roleMemoryDir(memoryHome, role);
  const archiveDir = rawArchiveDir(memoryHome, role, at);
  const inboxFiles = plan.batch.map((id) => ({
    id,
    file: path.join(roleDir, pending.sources[id]?.file ?? path.join('inbox', `${id}.md`)),
  }));
  for (const { id, file } of inboxFiles) {
    archiveRawItem(writes, file, archiveDir);
    step(`archive:${id}`);
  }

  // Everything above reaches the disk before any inbox item leaves it.
  await writes.flush();
  step('flush');

  for (const { id, file } of inboxFiles) {
    try {
      fs.unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // removed by an earlier, interrupted apply
    }
    writes.touchedDir(path.dirname(file));
    step(`unlink:${id}`);
  }
  writes.touchedDir(categoryDir(memoryHome, role, 'inbox'));
  await writes.flush();

  const digests = digestsFile(memoryHome, role);
  const applied: Record<string, number> = { created: plan.create.length, merged: plan.merge.length, discarded: plan.discard.length };
  if (plan.corrections.length) applied.corrected = plan.corrections.length;
  if (plan.supersede?.length) applied.superseded = plan.supersede.length;
  if (plan.bonds.length) applied.bonds = plan.bonds.length;
  if (pending.digestBefore === undefined) {
    pending.digestBefore = fileHash(digests);
    writePending(memoryHome, role, pending);
    step('digest-mark');
  }
  if (fileHash(digests) === pending.digestBefore) {
    const digest = await appendDigest(config, role, {
      summary: plan.digest,
      applied,
      record: `plan:${plan.id}`,
      ...(pending.reason ? { reason: pending.reason } : {}),
    });
    warnings.push(...digest.warnings);
  }
  step('digest');

  updateMemoryState(memoryHome, role, config.clock, (state) => ({
    ...state,
    last_sleep: formatLocalIso(config.clock.now()),
    last_sleep_digest: plan.digest,
  }));
  step('state');

  // The ids of what was created, for the sleep history; a replay writes the same ones again.
  const createdIds = plan.create.map((create) => created.get(create.key)!.id);
  // Through the schema, so the record's bytes are the same whether or not a crash made it a replay.
  writePending(memoryHome, role, pendingPlanSchema.parse({ ...pending, createdIds }));
  finishPending(memoryHome, role, plan.id);
  step('applied');

  return {
    planId: plan.id,
    processed: plan.batch.length,
    created: plan.create.length,
    merged: plan.merge.length,
    discarded: plan.discard.length,
    corrected: plan.corrections.length,
    bondsAdded,
    createdIds,
    warnings: [...new Set(warnings)],
  };
}
