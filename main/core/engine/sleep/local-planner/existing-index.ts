import { matchForm } from '../../../platform/text/cue-words.js';
import type { ExistingMemoryRef } from '../sleep-plan.js';
import { personsIn } from './candidate-rules.js';
import { salienceOf } from './salience.js';
import { FeatureSpace, featuresOf, GENERIC_TAGS, type Features } from './text-features.js';

/**
 * What the planner compares batch items against: each existing memory's features, topics,
 * people and salience, computed once per memory. A consolidation of 1,000 inbox items runs
 * ~250 batches against the same ~120 existing memories, so the analysis is cached by the
 * memory's id and text (a changed memory gets a new entry; the cache only saves work, the
 * result is the same without it).
 */
export interface ExistingAnalysis {
  ref: ExistingMemoryRef;
  index: number;
  features: Features;
  topics: string[];
  persons: string[];
  salience: number;
}

type Cached = Omit<ExistingAnalysis, 'ref' | 'index'>;

/** Topic keys of a memory: its tags in matching form, minus the kind tags (偏好, 情緒…). */
export function topicsOf(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const tag of tags) {
    const key = matchForm(tag).trim();
    if (key && !GENERIC_TAGS.has(key) && !out.includes(key)) out.push(key);
  }
  return out;
}

const CACHE_LIMIT = 5_000;
const SPACE_LIMIT = 500_000;

export class ExistingIndex {
  /** Shared with the batch items' features (analyse-batch.ts): both sides must use one space. */
  readonly space = new FeatureSpace();
  private readonly cache = new Map<string, Cached>();
  private byObject = new WeakMap<ExistingMemoryRef, Cached>();

  /** Call first for every batch: the cache and the feature space are only reset here, between batches. */
  analyse(refs: readonly ExistingMemoryRef[]): ExistingAnalysis[] {
    if (this.cache.size >= CACHE_LIMIT || this.space.size >= SPACE_LIMIT) {
      this.cache.clear();
      this.byObject = new WeakMap();
      this.space.clear();
    }
    return refs.map((ref, index) => ({ ref, index, ...this.cached(ref) }));
  }

  private cached(ref: ExistingMemoryRef): Cached {
    // The same ref object across batches (a collector that reuses its index) skips even the key.
    const known = this.byObject.get(ref);
    if (known) return known;
    const key = [ref.id, ref.summary, ref.gist, ref.tags.join('\u0001'), ref.cues.join('\u0001'), ref.priority].join('\u0000');
    const hit = this.cache.get(key);
    if (hit) {
      this.byObject.set(ref, hit);
      return hit;
    }
    const value: Cached = {
      features: featuresOf(this.space, [ref.summary, ref.gist, ...ref.cues], ref.tags),
      topics: topicsOf(ref.tags),
      persons: personsIn([ref.summary, ref.gist, ...ref.tags]),
      salience: salienceOf(ref.priority, []),
    };
    this.cache.set(key, value);
    this.byObject.set(ref, value);
    return value;
  }
}
