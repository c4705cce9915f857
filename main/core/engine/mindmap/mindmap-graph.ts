import { CATEGORIES, type ConsolidatedCategory, type Memory } from '../../../../common/memory.js';

/**
 * The concepts of a role's consolidated memories and how they hang together (PM-5): short names,
 * one node per concept.
 * Design notes: docs/design-notes.md, "main/core/engine/mindmap/mindmap-graph.ts".
 */
export interface MindmapNode {
  /** `c1`, `c2`, … in weight order. */
  id: string;
  label: string;
  weight: number;
  category: ConsolidatedCategory;
}

export interface MindmapEdge {
  source: string;
  target: string;
  weight: number;
  /** Memories carrying both concepts. */
  together: number;
  /** Linked memory pairs carrying one concept each. */
  linked: number;
}

export interface MindmapGraph {
  nodes: MindmapNode[];
  edges: MindmapEdge[];
  /** Concepts left out by the cap. */
  omitted: number;
  /** Consolidated memories read. */
  memories: number;
}

export const DEFAULT_MAX_CONCEPTS = 40;

type Consolidated = Pick<Memory, 'id' | 'category' | 'tags' | 'links'>;

const conceptKey = (tag: string) => tag.normalize('NFKC').trim().toLowerCase();
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface Concept {
  key: string;
  weight: number;
  spellings: Map<string, number>;
  categories: Map<ConsolidatedCategory, number>;
}

function bump<K>(map: Map<K, number>, key: K, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function mostUsed<K>(map: Map<K, number>, order: (a: K, b: K) => number): K {
  return [...map.entries()].sort((a, b) => b[1] - a[1] || order(a[0], b[0]))[0]![0];
}

function conceptsOf(memory: Consolidated): string[] {
  return [...new Set(memory.tags.map(conceptKey).filter(Boolean))].sort(byText);
}

export function buildMindmapGraph(all: readonly Consolidated[], maxConcepts = DEFAULT_MAX_CONCEPTS): MindmapGraph {
  const memories = all.filter((memory) => memory.category !== 'inbox');
  const concepts = new Map<string, Concept>();
  for (const memory of memories) {
    const seen = new Set<string>();
    for (const tag of memory.tags) {
      const key = conceptKey(tag);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      const concept = concepts.get(key) ?? { key, weight: 0, spellings: new Map(), categories: new Map() };
      concept.weight += 1;
      bump(concept.spellings, tag.trim());
      bump(concept.categories, memory.category as ConsolidatedCategory);
      concepts.set(key, concept);
    }
  }
  const ranked = [...concepts.values()].sort((a, b) => b.weight - a.weight || byText(a.key, b.key));
  const kept = ranked.slice(0, Math.max(0, maxConcepts));
  const idOf = new Map(kept.map((concept, i) => [concept.key, `c${i + 1}`]));
  const categoryOrder = (a: ConsolidatedCategory, b: ConsolidatedCategory) => CATEGORIES.indexOf(a) - CATEGORIES.indexOf(b);
  const nodes: MindmapNode[] = kept.map((concept) => ({
    id: idOf.get(concept.key)!,
    label: mostUsed(concept.spellings, byText),
    weight: concept.weight,
    category: mostUsed(concept.categories, categoryOrder),
  }));

  const pairs = new Map<string, { together: number; linked: number }>();
  const count = (a: string, b: string, field: 'together' | 'linked') => {
    const ida = idOf.get(a);
    const idb = idOf.get(b);
    if (!ida || !idb || ida === idb) return;
    const key = Number(ida.slice(1)) < Number(idb.slice(1)) ? `${ida}\0${idb}` : `${idb}\0${ida}`;
    const pair = pairs.get(key) ?? { together: 0, linked: 0 };
    pair[field] += 1;
    pairs.set(key, pair);
  };
  const byId = new Map(memories.map((memory) => [memory.id, memory]));
  for (const memory of memories) {
    const own = conceptsOf(memory);
    own.forEach((a, i) => own.slice(i + 1).forEach((b) => count(a, b, 'together')));
  }
  const linkedPairs = new Set<string>();
  for (const memory of memories) {
    for (const link of memory.links) {
      const other = byId.get(link.trim());
      if (!other || other.id === memory.id) continue;
      const pairKey = [memory.id, other.id].sort(byText).join('\0');
      if (linkedPairs.has(pairKey)) continue;
      linkedPairs.add(pairKey);
      for (const a of conceptsOf(memory)) for (const b of conceptsOf(other)) count(a, b, 'linked');
    }
  }
  const edges: MindmapEdge[] = [...pairs.entries()]
    .map(([key, pair]) => {
      const [source, target] = key.split('\0') as [string, string];
      return { source, target, weight: pair.together + pair.linked, together: pair.together, linked: pair.linked };
    })
    .sort(
      (a, b) =>
        b.weight - a.weight ||
        Number(a.source.slice(1)) - Number(b.source.slice(1)) ||
        Number(a.target.slice(1)) - Number(b.target.slice(1)),
    );
  return { nodes, edges, omitted: ranked.length - kept.length, memories: memories.length };
}
