import { z } from 'zod';
import { CATEGORIES, DECLARATIVE, MEMORY_TYPES } from '../../../../common/memory.js';

/**
 * The consolidation plan: what a planner (the local one, X-LOCAL, or an LLM, SLEEP-6) decides for
 * one batch of inbox items, as data.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/sleep-plan.ts".
 */
export const PLAN_VERSION = 1;

const text = z.string().trim().min(1);
const list = z.array(z.string().trim().min(1)).default([]);
const bondDirection = z.enum(['user-to-role', 'role-to-user', 'mutual']);

export const planCreateSchema = z.object({
  /** Plan-local key ("n1", "n2"…); links may name it before the memory has an id. */
  key: text,
  category: z.enum(CATEGORIES),
  summary: text,
  /** Gist and detail (PM-1: `主旨：` / `細節：`). */
  body: text,
  tags: list,
  priority: z.number().int().min(1).max(5),
  cues: list,
  memory_type: z.enum(MEMORY_TYPES),
  declarative: z.enum(DECLARATIVE),
  relevance: list,
  /** A date or a condition text (MEM-8); '' when none. */
  expires: z.string().default(''),
  /** Existing memory ids or other create keys of this plan. */
  links: list,
  /** The inbox ids this memory comes from (at least one). */
  sources: z.array(text).min(1),
});

export const planMergeSchema = z.object({
  /** An existing consolidated memory id. Only within the same memory_type (MEM-5). */
  target: text,
  /** The target's resulting fields after the merge (absolute, see above). */
  summary: text,
  body: text,
  tags: list,
  cues: list,
  priority: z.number().int().min(1).max(5),
  links: list,
  sources: z.array(text).min(1),
});

export const planLinkSchema = z.object({
  /** Existing memory ids or create keys; links are symmetric once applied. */
  from: text,
  to: text,
});

export const planBondSchema = z.object({
  direction: bondDirection,
  /** The user's own words or the role's real feeling (MEM-7); one line. */
  text,
  /** The inbox item it comes from. */
  source: text,
});

export const planDiscardSchema = z.object({
  source: text,
  /** Why (noise, duplicate of …, secret-only…), shown in the digest and logs. */
  reason: text,
});

/** PM-4: a denied probe corrected at this consolidation ("原本以為…後來發現…"). */
export const planCorrectionSchema = z.object({
  target: text,
  summary: text,
  body: text,
});

/**
 * Issue 12: the user replaced a preference or rule ("改用 pnpm 了，不要再用 yarn"). The older memory
 * (`target`, an existing id) is kept for history, marked `superseded_by` the memory that now holds
 * the user's wish (`by`: a create key of this plan or an existing id), and never injected as
 * current again. Never an emotional memory (MEM-5).
 */
export const planSupersedeSchema = z.object({
  target: text,
  by: text,
  /** What changed, in a few words, for the superseded memory's body (「改用 pnpm」). */
  reason: z.string().default(''),
});

export const sleepPlanSchema = z.object({
  v: z.literal(PLAN_VERSION),
  /** Unique per consolidation run (also names the pending file); set by the orchestrator. */
  id: text,
  role: text,
  /** `local` or `cli:<name>` (claude, codex, …). */
  planner: text,
  /** The inbox ids this plan consumes, in the order they were collected. */
  batch: z.array(text).min(1),
  create: z.array(planCreateSchema).default([]),
  merge: z.array(planMergeSchema).default([]),
  link: z.array(planLinkSchema).default([]),
  bonds: z.array(planBondSchema).default([]),
  discard: z.array(planDiscardSchema).default([]),
  corrections: z.array(planCorrectionSchema).default([]),
  /** Optional (plans recorded before it existed have none); read it as `plan.supersede ?? []`. */
  supersede: z.array(planSupersedeSchema).optional(),
  /** One or two sentences for DIGESTS.md and state.json's last_sleep_digest (MEM-10). */
  digest: text,
});

export type SleepPlan = z.infer<typeof sleepPlanSchema>;
export type PlanCreate = z.infer<typeof planCreateSchema>;
export type PlanMerge = z.infer<typeof planMergeSchema>;
export type PlanLink = z.infer<typeof planLinkSchema>;
export type PlanBond = z.infer<typeof planBondSchema>;
export type PlanDiscard = z.infer<typeof planDiscardSchema>;
export type PlanCorrection = z.infer<typeof planCorrectionSchema>;
export type PlanSupersede = z.infer<typeof planSupersedeSchema>;

/** What a planner is handed: the batch and the existing memories it may merge into or link to. */
export interface InboxItem {
  id: string;
  /** Absolute path of the inbox file. */
  path: string;
  summary: string;
  body: string;
  tags: string[];
  cues: string[];
  priority: number;
  memory_type: string;
  relevance: string[];
  created: string;
  /** The inbox file's `expires` (MEM-8), when it has one; planners keep it on the created memory. */
  expires?: string;
}

export interface ExistingMemoryRef {
  id: string;
  category: string;
  summary: string;
  tags: string[];
  cues: string[];
  priority: number;
  memory_type: string;
  links: string[];
  /** The body's gist (first paragraph), for similarity; the whole body is not sent. */
  gist: string;
  /** PM-4: the memory's probe was denied; a correction is due. */
  needsCorrection?: boolean;
  /** PM-4: what the user said when denying the probe (`probe_note`), the 「後來發現」 of the correction. */
  correctionNote?: string;
  /**
   * The whole body, when the collector has it at hand (the in-process local planner). A merge is
   * absolute, so a planner that only knows the gist cannot write a merged body without dropping
   * the target's detail; the local planner merges only into refs that carry their body.
   */
  body?: string;
}

export interface CollectedBatch {
  role: string;
  items: InboxItem[];
  existing: ExistingMemoryRef[];
  /** Inbox items not in this batch, left for a later one ("this batch N, M left for later"). */
  left: number;
  /** The batch header given to planners (SLEEP-4). */
  header: string;
  /** Material characters in this batch (for SLEEP-5's diagnostics). */
  materialChars: number;
}

/** A planner failure, told apart as SLEEP-5 asks (execution error vs truncated/invalid output). */
export type PlannerFailureKind = 'execution' | 'timeout' | 'truncated' | 'invalid' | 'incomplete';

export class PlannerError extends Error {
  constructor(
    readonly kind: PlannerFailureKind,
    message: string,
    readonly diagnostics: { materialChars: number; outputChars: number; batchSize: number; outputHead: string },
  ) {
    super(message);
    this.name = 'PlannerError';
  }
}

/** One interface, two implementations (local and CLI). `planId` is chosen by the orchestrator. */
export interface Planner {
  readonly name: string;
  plan(batch: CollectedBatch, planId: string, signal?: AbortSignal): Promise<SleepPlan>;
  /**
   * Batch budgets this planner wants instead of the settings (ROLE_SLEEP_BATCH,
   * ROLE_SLEEP_COLLECT_LIMIT, ROLE_SLEEP_EXISTING_LIMIT). Those are an LLM's limits — "一次要求模型
   * 輸出幾筆結構化 JSON" — and mean nothing to the local planner, which is better served by large
   * batches (more near-duplicates found, fewer plans to record). Failure still halves from here.
   */
  readonly batchLimits?: { items?: number; chars?: number; existing?: number };
}

/**
 * Checks a parsed plan against its batch: every batch item accounted for exactly once, no source
 * outside the batch, merge/correction targets and links among the known ids. Returns the problems
 * (empty when the plan is sound); planners and apply both call it.
 */
export function planProblems(plan: SleepPlan, existingIds: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const batch = new Set(plan.batch);
  const seen = new Map<string, number>();
  const use = (id: string, where: string) => {
    if (!batch.has(id)) problems.push(`${where} names ${id}, which is not in this batch`);
    seen.set(id, (seen.get(id) ?? 0) + 1);
  };
  for (const c of plan.create) for (const s of c.sources) use(s, `create ${c.key}`);
  for (const m of plan.merge) for (const s of m.sources) use(s, `merge into ${m.target}`);
  for (const d of plan.discard) use(d.source, 'discard');
  for (const id of plan.batch) {
    const n = seen.get(id) ?? 0;
    if (n === 0) problems.push(`inbox item ${id} is neither kept, merged nor discarded`);
    if (n > 1) problems.push(`inbox item ${id} is used ${n} times`);
  }
  const keys = new Set(plan.create.map((c) => c.key));
  if (keys.size !== plan.create.length) problems.push('two created memories share a key');
  const known = (id: string) => existingIds.has(id) || keys.has(id);
  for (const m of plan.merge) if (!existingIds.has(m.target)) problems.push(`merge target ${m.target} is not an existing memory`);
  for (const c of plan.corrections)
    if (!existingIds.has(c.target)) problems.push(`correction target ${c.target} is not an existing memory`);
  for (const l of plan.link) if (!known(l.from) || !known(l.to)) problems.push(`link ${l.from} → ${l.to} names an unknown memory`);
  for (const c of plan.create) for (const l of c.links) if (!known(l)) problems.push(`create ${c.key} links to unknown ${l}`);
  for (const b of plan.bonds) if (!batch.has(b.source)) problems.push(`bond source ${b.source} is not in this batch`);
  const superseded = new Set<string>();
  for (const s of plan.supersede ?? []) {
    if (!existingIds.has(s.target)) problems.push(`superseded memory ${s.target} is not an existing memory`);
    if (!known(s.by)) problems.push(`${s.target} is superseded by unknown ${s.by}`);
    if (s.by === s.target) problems.push(`${s.target} cannot supersede itself`);
    if (superseded.has(s.target)) problems.push(`${s.target} is superseded twice`);
    superseded.add(s.target);
  }
  return problems;
}
