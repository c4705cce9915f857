import type { Memory } from '../../../../common/memory.js';
import { parseLooseDate } from '../../platform/config/clock.js';
import { isPinned } from './pinned.js';

/**
 * PM-2 (seed 001 §遺忘原則): long-term forgetting is not deletion but blurring — "真人大部分時間
 * 活在中間帶". Retrievability decays with time since the memory was last touched, slower the
 * more stable it is, and stability grows with strength × recalls × salience ("穩定度 = 強度 ×
 * 被想起過幾次 × 顯著度，越常想起的衰減越慢"). Three states follow:
 *
 *   clear  (R ≥ 0.6)      gist and detail may be told
 *   faded  (0.3 ≤ R < 0.6) gist only — "主旨可以講，細節不可以補"
 *   fuzzy  (R < 0.3)      only "something happened" and its topics, raised as a question
 *
 * The seed names the shape, not the constants. These give a default memory (priority 3, strength
 * 60, never recalled) about 18 clear days and 43 before it turns fuzzy; each recall (+8 strength,
 * +1 hit) and each priority step stretches both.
 */
export type Clarity = 'clear' | 'faded' | 'fuzzy';

const BASE_STABILITY_DAYS = 30;
const DAY_MS = 86_400_000;

/** Words that mark seed 001's never-fading kinds (boundary, promise, canon) when used as tags. */
const NEVER_FADING_TAGS = new Set(['boundary', 'promise', 'canon', '界線', '邊界', '承諾', '原作', '原作設定']);

/**
 * Never faded (PM-2): rule, preference and emotional memories, priority 5, and boundaries,
 * promises and canon, and what the user pinned. Seed 000 protects the first three from forgetting for the same reason:
 * their `hits` stay low by nature, so usage would misjudge their worth.
 */
export function neverFades(memory: Pick<Memory, 'memory_type' | 'priority' | 'tags'> & Partial<Pick<Memory, 'extra'>>): boolean {
  if (isPinned(memory)) return true; // issue 16: pinned by the user
  if (memory.memory_type === 'rule' || memory.memory_type === 'preference' || memory.memory_type === 'emotional') return true;
  if (memory.priority >= 5) return true;
  return memory.tags.some((tag) => NEVER_FADING_TAGS.has(tag.trim().toLowerCase()));
}

type Touched = Pick<Memory, 'last_replayed' | 'updated' | 'created'>;
/** Per memory object: a SessionStart asks this of thousands of memories (X-PERF); NaN = no date. */
const touchedTimes = new WeakMap<Touched, number>();

/** The last time the memory was written or recalled; undefined when no date can be read. */
function lastTouched(memory: Touched): Date | undefined {
  let time = touchedTimes.get(memory);
  if (time === undefined) {
    const times = [memory.last_replayed, memory.updated, memory.created]
      .map((value) => parseLooseDate(value)?.getTime())
      .filter((t): t is number => t !== undefined);
    time = times.length ? Math.max(...times) : Number.NaN;
    touchedTimes.set(memory, time);
  }
  return Number.isNaN(time) ? undefined : new Date(time);
}

export function stabilityDays(memory: Pick<Memory, 'strength' | 'hits' | 'priority'>): number {
  const strength = Math.max(1, Math.min(100, memory.strength)) / 50;
  const recalls = 1 + Math.log1p(Math.max(0, memory.hits));
  const salience = Math.max(1, Math.min(5, memory.priority)) / 3;
  return BASE_STABILITY_DAYS * strength * recalls * salience;
}

/** 0–1; 1 for a memory touched now or with no readable date (nothing says it has faded). */
export function retrievability(memory: Memory, now: Date): number {
  const touched = lastTouched(memory);
  if (!touched) return 1;
  const ageDays = Math.max(0, (now.getTime() - touched.getTime()) / DAY_MS);
  return Math.exp(-ageDays / stabilityDays(memory));
}

/** Retrievability at which a memory stops being clear, and stops being faded. */
const CLEAR_MIN = 0.6;
const FADED_MIN = 0.3;

/**
 * A memory's clarity at `now`, and the moment it next changes (Infinity: never). R = e^(−age/S)
 * crosses CLEAR_MIN and FADED_MIN at fixed ages, so clarity is a step function of time and a load
 * built from it stays right until the earliest such step among its memories — the daemon keeps a
 * prepared load that long (memory-block.ts) instead of re-judging thousands of memories per event.
 */
export function clarityWindow(memory: Memory, now: Date): { clarity: Clarity; until: number } {
  if (neverFades(memory)) return { clarity: 'clear', until: Infinity };
  const touched = lastTouched(memory);
  if (!touched) return { clarity: 'clear', until: Infinity };
  const stability = stabilityDays(memory) * DAY_MS;
  // The same comparisons as retrievability() ≥ CLEAR_MIN / FADED_MIN, solved for the age.
  const clearUntil = touched.getTime() + stability * -Math.log(CLEAR_MIN);
  const fadedUntil = touched.getTime() + stability * -Math.log(FADED_MIN);
  const time = now.getTime();
  if (time < clearUntil) return { clarity: 'clear', until: clearUntil };
  if (time < fadedUntil) return { clarity: 'faded', until: fadedUntil };
  return { clarity: 'fuzzy', until: Infinity };
}

export function memoryClarity(memory: Memory, now: Date): Clarity {
  return clarityWindow(memory, now).clarity;
}

/**
 * PM-1: a body is a gist and a detail — labelled `主旨：`/`細節：` (or gist:/detail:), else the
 * first paragraph is the gist and the rest the detail. Decay "先吃細節、主旨最後才掉".
 */
export function splitGist(body: string): { gist: string; detail: string } {
  const text = body.trim();
  const labelled = /^(?:主旨|gist)\s*[:：]\s*([\s\S]*?)(?:\n\s*(?:細節|detail)\s*[:：]\s*([\s\S]*))?$/i.exec(text);
  if (labelled) return { gist: labelled[1]!.trim(), detail: (labelled[2] ?? '').trim() };
  const [first = '', ...rest] = text.split(/\n\s*\n/);
  return { gist: first.trim(), detail: rest.join('\n\n').trim() };
}
