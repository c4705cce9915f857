import path from 'node:path';
import type { ConsolidatedCategory, Memory, StoredMemory } from '../../../../common/memory.js';
import { formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import { derivedIdCandidates, inspectDerivedSlot, type DerivedSlot } from '../../store/memory/derived-id.js';
import { fileNameForId, serializeMemory } from '../../store/memory/memory-file.js';
import { categoryDir } from '../../store/memory/memory-layout.js';
import {
  prepareMemory,
  writePreparedMemory,
  type MemoryDraft,
  type PreparedMemory,
  type TextGate,
} from '../../store/memory/memory-writer.js';
import type { ProjectFields } from '../../store/projects/memory-project.js';
import { createdProjectExtra, mergedProjectExtra } from './consolidation-project.js';
import type { DeferredWrites } from './deferred-writes.js';
import type { MemoryCatalog } from './memory-catalog.js';
import type { PlanCorrection, PlanCreate, PlanMerge, SleepPlan } from './sleep-plan.js';

/**
 * The memory-file steps of apply: created memories, merges, corrections, links. Each is written
 * so that doing it twice leaves the same bytes as doing it once (apply-plan.ts replays them after
 * a crash): created memories have ids derived from the plan and are created exclusively; merges
 * and corrections write the plan's absolute fields; links and sources are set unions.
 */
export interface ApplyContext {
  memoryHome: string;
  role: string;
  plan: SleepPlan;
  /** The plan's recorded time, as a Date and as written into files (ISO 8601 with offset). */
  at: Date;
  iso: string;
  /** The batch's inbox items' `created` as written, by inbox id (see createdOf). */
  sourceCreated: ReadonlyMap<string, string>;
  /** The batch's inbox items' project fields, by inbox id (issue 12; absent: global, no project). */
  sourceProjects?: ReadonlyMap<string, ProjectFields>;
  writes: DeferredWrites;
  /** Consolidated memories by id, as found when apply started. */
  existing: ReadonlyMap<string, StoredMemory>;
  /** Reads files as they are now and learns what apply writes (parsing is most of a rewrite's cost). */
  catalog: MemoryCatalog;
}

/** Where a created memory goes, and the id it gets (see createdIdCandidates). */
export interface CreatedTarget {
  key: string;
  id: string;
  path: string;
  /** False when a replay found the file already there. */
  written: boolean;
}

/** `sleep_plan` in a created memory's frontmatter: which plan and key made it (replay ownership). */
const ownerMark = (planId: string, key: string) => `${planId}#${key}`;

/** A created memory's id candidates: the shape of every other id (see derived-id.ts), so a replay computes the same file name. */
function createdIdCandidates(plan: SleepPlan, key: string, at: Date): string[] {
  return derivedIdCandidates(`${plan.id}#${key}`, at);
}

const inspect = (file: string, mark: string): DerivedSlot => inspectDerivedSlot(file, 'sleep_plan', mark);

/** Decide every created memory's id before writing any, so links can name them. */
export function resolveCreatedTargets(ctx: ApplyContext): Map<string, CreatedTarget> {
  const targets = new Map<string, CreatedTarget>();
  for (const create of ctx.plan.create) {
    const dir = categoryDir(ctx.memoryHome, ctx.role, create.category);
    const mark = ownerMark(ctx.plan.id, create.key);
    for (const id of createdIdCandidates(ctx.plan, create.key, ctx.at)) {
      const file = path.join(dir, fileNameForId(id));
      const found = inspect(file, mark);
      if (found === 'other') continue;
      targets.set(create.key, { key: create.key, id, path: file, written: found === 'ours' });
      break;
    }
    if (!targets.has(create.key)) throw new Error(`no free file name for the memory "${create.key}" of plan ${ctx.plan.id} in ${dir}`);
  }
  return targets;
}

/** Undirected links of the plan, by resolved id: create.links, merge.links and plan.link. */
export function planEdges(plan: SleepPlan, idOf: (ref: string) => string | undefined): Map<string, string[]> {
  const neighbours = new Map<string, string[]>();
  const add = (a: string, b: string) => {
    const list = neighbours.get(a) ?? [];
    if (!list.includes(b)) list.push(b);
    neighbours.set(a, list);
  };
  const edge = (from: string, to: string) => {
    const a = idOf(from);
    const b = idOf(to);
    if (!a || !b || a === b) return;
    add(a, b);
    add(b, a);
  };
  for (const create of plan.create) for (const link of create.links) edge(create.key, link);
  for (const merge of plan.merge) for (const link of merge.links) edge(merge.target, link);
  for (const link of plan.link) edge(link.from, link.to);
  return neighbours;
}

function union(base: readonly string[], more: readonly string[]): string[] {
  return [...new Set([...base, ...more])];
}

/**
 * A created memory's `created` (issue 11): when its earliest source inbox item was captured, so
 * that something said at 23:50 stays on that day in the timeline instead of moving to the night's
 * consolidation. Never later than the plan (a source stamped ahead of the clock counts as the
 * plan's time), and the plan's time when no source has a readable one. Its `updated` is the
 * plan's time: consolidating is the write FORGET-1's "not updated for N days" counts from, so an
 * item that waited in the inbox is not forgotten any sooner for it.
 */
function createdOf(ctx: ApplyContext, sources: readonly string[]): string {
  let earliest = ctx.at.getTime();
  for (const id of sources) {
    const at = parseLooseDate(ctx.sourceCreated.get(id))?.getTime();
    if (at !== undefined && at < earliest) earliest = at;
  }
  return earliest === ctx.at.getTime() ? ctx.iso : formatLocalIso(new Date(earliest));
}

/** Plan texts went through the storage gate in one batch before the plan was recorded (cleanPlanForStorage). */
const cleanedWithThePlan: TextGate = async (text) => ({ text, warnings: [] });

/** A new consolidated memory, made by the one write path's preparation (defaults, serialisation, size cap). */
function newMemory(ctx: ApplyContext, create: PlanCreate, id: string, links: string[]): Promise<PreparedMemory> {
  const draft: MemoryDraft = {
    id,
    category: create.category,
    priority: create.priority,
    memory_type: create.memory_type,
    summary: create.summary,
    tags: create.tags,
    cues: create.cues,
    expires: create.expires,
    relevance: create.relevance,
    links,
    declarative: create.declarative,
    retention_stage: 'long_term',
    sleep_stage: 'nrem-rem',
    created: createdOf(ctx, create.sources),
    updated: ctx.iso,
    // Hits +1 per dedupe merge: the same thing said again in one night counts as it does across
    // nights (three paraphrases of a rule are one memory, hits 2).
    hits: Math.max(0, create.sources.length - 1),
    body: create.body,
    verbatimExtra: {
      sources: create.sources,
      sleep_plan: ownerMark(ctx.plan.id, create.key),
      ...createdProjectExtra(ctx.sourceProjects, create.sources),
    },
  };
  return prepareMemory(draft, ctx.at, cleanedWithThePlan);
}

export async function writeCreated(ctx: ApplyContext, create: PlanCreate, target: CreatedTarget, links: string[]): Promise<void> {
  if (target.written) return;
  const prepared = await newMemory(ctx, create, target.id, links);
  const found = inspect(target.path, ownerMark(ctx.plan.id, create.key));
  if (found === 'ours') return;
  // A file left empty by a power cut before the flush barrier is ours to finish; anything else is created exclusively.
  const createFile = (file: string, text: string) =>
    found === 'broken' ? (ctx.writes.replace(file, text), true) : ctx.writes.createExclusive(file, text);
  const { written } = writePreparedMemory(ctx.memoryHome, ctx.role, prepared, createFile);
  if (written) ctx.catalog.remember(target.path, create.category, prepared.text, prepared.memory);
}

/**
 * Read, change and write back one existing memory. Unknown keys ride along in `extra`; a change
 * that leaves the text as it was writes nothing (mtime included). Returns false when the file is
 * gone (a hand deletion between the plan and now).
 */
export function rewriteExisting(ctx: ApplyContext, memory: StoredMemory, mutate: (current: Memory) => Memory): boolean {
  const found = ctx.catalog.current(memory);
  if (!found) return false;
  const { role: _role, path: _path, ...current } = found.memory;
  const changed = mutate(current);
  if (changed === current) return true;
  const next = serializeMemory(changed);
  if (next === found.text) return true;
  ctx.writes.replace(memory.path, next);
  ctx.catalog.remember(memory.path, memory.category, next, changed);
  return true;
}

/**
 * A merge: the target takes the plan's summary, body, tags, cues and priority (absolute); it keeps
 * its strength, its own `created` (not the sources': only `updated` becomes the plan's time) and
 * every unknown key — `first_seen` included (FORGET: "Rewriting a memory keeps its earned strength
 * and first_seen") — and its hits go up by one. Links and sources are unions: a planner that
 * lists fewer links than the target had must not cut the target loose (links protect from
 * forgetting, FORGET-1).
 */
export function applyMerge(ctx: ApplyContext, merge: PlanMerge, links: string[]): boolean {
  const target = ctx.existing.get(merge.target);
  if (!target) return false;
  return rewriteExisting(ctx, target, (current) => {
    const known = Array.isArray(current.extra.sources) ? current.extra.sources.map(String) : [];
    // MEM-2: `hits` is the hit count, +1 on a dedupe merge. Counted once per merge, and only
    // when the merge brings sources the target has not recorded yet, so a replay adds nothing.
    const fresh = merge.sources.some((source) => !known.includes(source));
    return {
      ...current,
      hits: current.hits + (fresh ? 1 : 0),
      summary: merge.summary,
      body: merge.body,
      tags: merge.tags,
      cues: merge.cues,
      priority: merge.priority,
      links: union(current.links, links),
      retention_stage: 'long_term',
      sleep_stage: 'nrem-rem',
      updated: ctx.iso,
      extra: mergedProjectExtra({ ...current.extra, sources: union(known, merge.sources) }, ctx.sourceProjects, merge.sources),
    };
  });
}

/** A merge whose target vanished: its text becomes a memory of its own, so the sources are not lost. */
export function mergeAsCreate(merge: PlanMerge, category: ConsolidatedCategory, memoryType: PlanCreate['memory_type']): PlanCreate {
  return {
    key: `merge:${merge.target}`,
    category,
    summary: merge.summary,
    body: merge.body,
    tags: merge.tags,
    priority: merge.priority,
    cues: merge.cues,
    memory_type: memoryType,
    declarative: memoryType === 'procedural' || memoryType === 'emotional' ? 'implicit' : 'explicit',
    relevance: [],
    expires: '',
    links: [],
    sources: merge.sources,
  };
}

/** PM-4: 「原本以為…後來發現…」 written over the denied memory; the denial is marked as corrected. */
export function applyCorrection(ctx: ApplyContext, correction: PlanCorrection): boolean {
  const target = ctx.existing.get(correction.target);
  if (!target) return false;
  return rewriteExisting(ctx, target, (current) => {
    const extra: Record<string, unknown> = { ...current.extra, probe_corrected: ctx.iso };
    delete extra.needs_correction;
    return { ...current, summary: correction.summary, body: correction.body, updated: ctx.iso, extra };
  });
}

/** Add the plan's links to an existing memory (symmetric links: the other side was written too). */
export function addLinks(ctx: ApplyContext, memory: StoredMemory, links: readonly string[]): boolean {
  return rewriteExisting(ctx, memory, (current) => {
    const next = union(current.links, links);
    return next.length === current.links.length ? current : { ...current, links: next };
  });
}
