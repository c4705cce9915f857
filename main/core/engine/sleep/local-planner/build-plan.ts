import {
  PLAN_VERSION,
  PlannerError,
  planProblems,
  sleepPlanSchema,
  type CollectedBatch,
  type PlanBond,
  type PlanCreate,
  type PlanDiscard,
  type PlanMerge,
  type SleepPlan,
} from '../sleep-plan.js';
import { analyseBatch, type ItemAnalysis } from './analyse-batch.js';
import { bondsFor } from './bond-lines.js';
import { correctionsFor } from './corrections.js';
import { digestText, mainTopics } from './digest.js';
import { findMergeTarget, groupNearDuplicates, groupsRelated, MAX_LINKS, relatedExisting, type Score } from './duplicates.js';
import type { ExistingAnalysis, ExistingIndex } from './existing-index.js';
import { chronological, createdText, mergedText, union } from './memory-text.js';
import { NOISE_REASONS } from './noise.js';
import { replacedBy, supersessionsFor } from './replacements.js';

/**
 * One batch → one plan (X-LOCAL): NREM (denoise, classify, dedupe, merge, priority), REM (links,
 * cues, memory_type, declarative), bonds, PM-4 corrections and the digest. Pure: the plan depends
 * only on the batch, the plan id and `now` — no randomness, no clock read, inbox order breaks
 * every tie — so the same batch always gives byte-identical JSON.
 *
 * Exact duplicates of an existing memory ("nothing new") are merged with the target's text left
 * unchanged rather than discarded: a merge keeps the repetition on record (apply adds the item to
 * the target's `sources`; MEM-2 counts a dedupe merge as a hit, and R2 treats repetition
 * as evidence), where a discard would only say it happened once more. Only when the target's whole
 * body was not collected — a merge is absolute and could not keep its detail — is the exact
 * duplicate discarded as "duplicate of <id>", and a near-duplicate created and linked instead.
 *
 * Links are written on the created/merged entries themselves (apply makes them symmetric); the
 * plan's separate `link` list stays empty.
 */
interface Entry {
  sources: ItemAnalysis[];
  /** Set for a merge into an existing memory. */
  target?: ExistingAnalysis;
  /** Set for a create ("n1", "n2"…). */
  key?: string;
  /** An existing memory it would have merged into had its body been known: linked first. */
  nearDuplicateOf?: string;
  /** Issue 12: existing memories the user replaced with this one (superseded, linked). */
  replacing: string[];
  links: string[];
}

const isWarm = (sources: readonly ItemAnalysis[]) =>
  sources.some((s) => s.classification.memory_type === 'emotional' || s.classification.relevance.includes('emotional'));

function entriesOf(kept: readonly ItemAnalysis[], existing: readonly ExistingAnalysis[], score: Score, discard: PlanDiscard[]): Entry[] {
  const entries: Entry[] = [];
  const mergeByTarget = new Map<string, Entry>();
  for (const group of groupNearDuplicates(kept)) {
    const replacing = replacedBy(group, existing, score);
    // A correction is never merged into the memory it replaces: that one becomes history.
    const found = findMergeTarget(group, existing, score);
    const match = found && !replacing.includes(found.ref.ref.id) ? found : undefined;
    if (match && match.ref.ref.body !== undefined) {
      // Two groups of one batch may match the same memory: one merge entry, or apply would write
      // two conflicting absolute bodies.
      const known = mergeByTarget.get(match.ref.ref.id);
      if (known) {
        known.sources.push(...group);
        known.replacing.push(...replacing.filter((id) => !known.replacing.includes(id)));
      } else {
        const entry: Entry = { sources: [...group], target: match.ref, replacing, links: [] };
        mergeByTarget.set(match.ref.ref.id, entry);
        entries.push(entry);
      }
    } else if (match?.exact) {
      for (const member of group) discard.push({ source: member.item.id, reason: `duplicate of ${match.ref.ref.id}` });
    } else {
      entries.push({ sources: [...group], ...(match ? { nearDuplicateOf: match.ref.ref.id } : {}), replacing, links: [] });
    }
  }
  let n = 0;
  for (const entry of entries) if (!entry.target) entry.key = `n${++n}`;
  return entries;
}

function linkEntries(entries: readonly Entry[], existing: readonly ExistingAnalysis[], score: Score): void {
  const idOf = (entry: Entry) => entry.key ?? entry.target!.ref.id;
  for (const entry of entries) {
    const self = new Set(entry.target ? [entry.target.ref.id] : []);
    entry.links.push(
      ...entry.replacing,
      ...(entry.nearDuplicateOf ? [entry.nearDuplicateOf] : []),
      ...relatedExisting(entry.sources, existing, self, score),
    );
  }
  // At most MAX_LINKS per memory, in-batch links included: the local planner takes batches of
  // hundreds, and linking every related pair gave memories dozens of links — noise for a reader,
  // and every link is a rewrite of the linked file at apply time.
  const room = (entry: Entry) => new Set(entry.links).size < MAX_LINKS;
  for (let i = 0; i < entries.length; i += 1) {
    for (let j = i + 1; j < entries.length && room(entries[i]!); j += 1) {
      if (!room(entries[j]!) || !groupsRelated(entries[i]!.sources, entries[j]!.sources)) continue;
      entries[i]!.links.push(idOf(entries[j]!));
      entries[j]!.links.push(idOf(entries[i]!));
    }
  }
  for (const entry of entries) entry.links = [...new Set(entry.links)].filter((id) => id !== idOf(entry));
}

function createOf(entry: Entry): PlanCreate {
  const sources = chronological(entry.sources);
  const lead = sources[0]!.classification;
  const text = createdText(sources);
  return {
    key: entry.key!,
    category: lead.category,
    summary: text.summary,
    body: text.body,
    tags: text.tags,
    priority: Math.max(...sources.map((s) => s.classification.priority)),
    cues: text.cues,
    memory_type: lead.memory_type,
    declarative: lead.declarative,
    relevance: union(
      sources.map((s) => s.classification.relevance),
      12,
    ),
    expires: lead.expires,
    links: entry.links,
    sources: sources.map((s) => s.item.id),
  };
}

function mergeOf(entry: Entry): PlanMerge {
  const ref = entry.target!.ref;
  const sources = chronological(entry.sources);
  const newestWins = ref.memory_type === 'preference' || ref.memory_type === 'rule';
  const text = mergedText({ ...ref, body: ref.body ?? '' }, sources, newestWins);
  return {
    target: ref.id,
    summary: text.summary,
    body: text.body,
    tags: text.tags,
    cues: text.cues,
    priority: Math.max(ref.priority, ...sources.map((s) => s.classification.priority)),
    links: union([ref.links, entry.links], 64).filter((id) => id !== ref.id),
    sources: sources.map((s) => s.item.id),
  };
}

/** MEM-7: one bond per new emotional or warm memory (two for relationship talk, see bond-lines.ts). */
function bondsOf(entries: readonly Entry[]): PlanBond[] {
  const bonds: PlanBond[] = [];
  // Emotional memories first: when a warm preference and its feeling half (capture splits such a
  // turn in two) carry the same words, the bond names the feeling as its source.
  const emotional = (entry: Entry) => entry.sources.some((s) => s.classification.memory_type === 'emotional');
  const ordered = [...entries.filter(emotional), ...entries.filter((entry) => !emotional(entry))];
  for (const entry of ordered) {
    if (!isWarm(entry.sources)) continue;
    const sources = chronological(entry.sources);
    const source = sources.find((s) => s.relationshipTalk) ?? sources[0]!;
    for (const bond of bondsFor(source)) if (!bonds.some((b) => b.text === bond.text)) bonds.push(bond);
  }
  return bonds;
}

export function buildLocalPlan(batch: CollectedBatch, planId: string, now: Date, index?: ExistingIndex): SleepPlan {
  const diagnostics = { materialChars: batch.materialChars, outputChars: 0, batchSize: batch.items.length, outputHead: '' };
  if (!batch.items.length) throw new PlannerError('incomplete', `the batch for role ${batch.role} has no inbox items to plan`, diagnostics);
  const analysis = analyseBatch(batch, now, index);
  const discard: PlanDiscard[] = [];
  const kept: ItemAnalysis[] = [];
  for (const item of analysis.items) {
    if (item.noise) discard.push({ source: item.item.id, reason: NOISE_REASONS[item.noise] });
    else if (item.evict) discard.push({ source: item.item.id, reason: item.evict });
    else kept.push(item);
  }
  const entries = entriesOf(kept, analysis.existing, analysis.score, discard);
  linkEntries(entries, analysis.existing, analysis.score);
  const create = entries.filter((e) => !e.target).map(createOf);
  const merge = entries.filter((e) => e.target).map(mergeOf);
  const corrections = correctionsFor(analysis.existing, kept, analysis.today, analysis.score);
  const rewritten = new Set([...merge.map((m) => m.target), ...corrections.map((c) => c.target)]);
  const supersede = supersessionsFor(
    entries.map((entry) => ({
      by: entry.key ?? entry.target!.ref.id,
      sources: chronological(entry.sources),
      replacing: entry.replacing.filter((id) => !rewritten.has(id)),
    })),
  );
  const digest = digestText(
    { items: batch.items.length, created: create.length, merged: merge.length, discarded: discard.length, corrected: corrections.length },
    mainTopics([...merge.map((m) => m.tags), ...create.map((c) => c.tags)]),
  );
  const parsed = sleepPlanSchema.safeParse({
    v: PLAN_VERSION,
    id: planId,
    role: batch.role,
    planner: 'local',
    batch: batch.items.map((item) => item.id),
    create,
    merge,
    link: [],
    bonds: bondsOf(entries),
    discard,
    corrections,
    ...(supersede.length ? { supersede } : {}),
    digest,
  });
  if (!parsed.success) {
    // A bug here must keep the inbox untouched (SLEEP-5), never write half a plan.
    throw new PlannerError(
      'invalid',
      `the local planner made a plan that fails the schema for role ${batch.role}: ${parsed.error.message}`,
      diagnostics,
    );
  }
  const plan = parsed.data;
  const problems = planProblems(plan, new Set(batch.existing.map((ref) => ref.id)));
  if (problems.length) {
    throw new PlannerError('invalid', `the local planner made an unsound plan for role ${batch.role}: ${problems.join('; ')}`, diagnostics);
  }
  return plan;
}
