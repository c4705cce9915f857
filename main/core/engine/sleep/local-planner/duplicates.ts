import type { ItemAnalysis } from './analyse-batch.js';
import type { ExistingAnalysis } from './existing-index.js';
import { detailLines } from './memory-text.js';
import { sameRuleAsRef, sameRuleItems } from './paraphrase.js';
import { containsWords, similarity } from './text-features.js';

/**
 * NREM's dedupe/merge and REM's cross-memory links (SLEEP-4), by the similarity of
 * text-features.ts.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/local-planner/duplicates.ts".
 */
export const MERGE_SIMILARITY = 0.5;
export const LINK_SIMILARITY = 0.2;
export const MAX_LINKS = 6;

function canMergeItems(a: ItemAnalysis, b: ItemAnalysis): boolean {
  if (a.classification.memory_type !== b.classification.memory_type || a.expires !== b.expires) return false;
  const value = similarity(a.features, b.features);
  // Issue 12: paraphrases of one rule, judged by a shared key term too (paraphrase.ts).
  return value >= MERGE_SIMILARITY || sameRuleItems(a, b, value);
}

/** Near-duplicates within the batch, as groups in inbox order (union-find over the kept items). */
export function groupNearDuplicates(kept: readonly ItemAnalysis[]): ItemAnalysis[][] {
  const parent = kept.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < kept.length; i += 1) {
    for (let j = i + 1; j < kept.length; j += 1) {
      if (find(i) !== find(j) && canMergeItems(kept[i]!, kept[j]!)) parent[Math.max(find(i), find(j))] = Math.min(find(i), find(j));
    }
  }
  const groups = new Map<number, ItemAnalysis[]>();
  kept.forEach((item, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), item]);
  });
  return [...groups.values()];
}

export interface TargetMatch {
  ref: ExistingAnalysis;
  score: number;
  /** Every source says nothing the target does not already say. */
  exact: boolean;
}

/** Similarity of a batch item to an existing memory (BatchAnalysis.score: memoised per pair). */
export type Score = (item: ItemAnalysis, ref: ExistingAnalysis) => number;

function groupScore(group: readonly ItemAnalysis[], ref: ExistingAnalysis, score: Score): number {
  let best = 0;
  for (const member of group) best = Math.max(best, score(member, ref));
  return best;
}

/** The group's merge score against `ref`: a paraphrase of the same rule (paraphrase.ts) counts as the merge bar. */
function mergeScore(group: readonly ItemAnalysis[], ref: ExistingAnalysis, score: Score): number {
  let best = 0;
  for (const member of group) {
    const value = score(member, ref);
    best = Math.max(best, value < MERGE_SIMILARITY && sameRuleAsRef(member, ref, value) ? MERGE_SIMILARITY : value);
  }
  return best;
}

function addsNothing(member: ItemAnalysis, ref: ExistingAnalysis): boolean {
  const known = `${ref.ref.summary}\n${ref.ref.body ?? ref.ref.gist}`;
  return containsWords(known, member.item.summary) && detailLines(member).every((line) => containsWords(known, line));
}

/** The existing memory a group of the same type would merge into, best score first, earlier on ties. */
export function findMergeTarget(
  group: readonly ItemAnalysis[],
  existing: readonly ExistingAnalysis[],
  score: Score,
): TargetMatch | undefined {
  const lead = group[0]!;
  if (lead.expires) return undefined;
  const warm = group.some((member) => member.classification.relevance.includes('emotional'));
  let best: TargetMatch | undefined;
  for (const ref of existing) {
    if (ref.ref.memory_type !== lead.classification.memory_type || ref.ref.needsCorrection) continue;
    if (warm && ref.ref.memory_type !== 'emotional') continue;
    const value = mergeScore(group, ref, score);
    if (value >= MERGE_SIMILARITY && (!best || value > best.score)) best = { ref, score: value, exact: false };
  }
  if (best) best.exact = group.every((member) => addsNothing(member, best!.ref));
  return best;
}

/**
 * Existing memories related to a group (any type), strongest first, at most MAX_LINKS. A shared
 * person scores as a link at the bar, so text likeness ranks first.
 */
export function relatedExisting(
  group: readonly ItemAnalysis[],
  existing: readonly ExistingAnalysis[],
  exclude: ReadonlySet<string>,
  score: Score,
): string[] {
  const persons = new Set(group.filter((m) => m.hits.some((hit) => hit.rule === 'R5')).flatMap((m) => m.persons));
  const scored: { id: string; score: number; index: number }[] = [];
  for (const ref of existing) {
    if (exclude.has(ref.ref.id)) continue;
    let value = groupScore(group, ref, score);
    if (value < LINK_SIMILARITY && persons.size && ref.persons.some((person) => persons.has(person))) value = LINK_SIMILARITY;
    if (value >= LINK_SIMILARITY) scored.push({ id: ref.ref.id, score: value, index: ref.index });
  }
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return [...new Set(scored.map((s) => s.id))].slice(0, MAX_LINKS);
}

/** Whether two groups of this batch are related (text, or the same person under R5). */
export function groupsRelated(a: readonly ItemAnalysis[], b: readonly ItemAnalysis[]): boolean {
  for (const x of a) {
    for (const y of b) {
      if (similarity(x.features, y.features) >= LINK_SIMILARITY) return true;
      const shared = x.persons.filter((p) => y.persons.includes(p));
      if (shared.length && x.hits.some((h) => h.rule === 'R5') && y.hits.some((h) => h.rule === 'R5')) return true;
    }
  }
  return false;
}
