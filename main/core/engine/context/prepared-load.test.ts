import { describe, expect, it } from 'vitest';
import { memoryObject as memory } from '../../../../test/helpers/memory-object.js';
import type { Memory, MemoryCategory, MemoryType } from '../../../../common/memory.js';
import { formatLocalDate } from '../../platform/config/clock.js';
import { prepareLongTermMemory } from './memory-block.js';
import { clarityWindow, memoryClarity } from '../../store/memory/memory-clarity.js';
import { selectLongTermMemories } from './memory-selection.js';

/**
 * What the daemon keeps between events (X-PERF) must be exactly what computing afresh gives:
 * a selection sorted from the previous list's order, and a prepared load reused until the first
 * moment a memory's clarity or expiry changes. Each test compares against a list that is not
 * frozen, which is always computed from scratch (the hook's fallback path).
 */
// Noon on 2026-12-01 in the zone the test runs in: a bare expires date runs to the end of that
// local day, so "now" and the days after it must be local times, not Taipei instants.
const NOW = new Date(2026, 11, 1, 12, 0);
const DAY = 86_400_000;
const CATEGORIES: MemoryCategory[] = ['important', 'interest', 'skill', 'news', 'daily', 'other'];
const TYPES: MemoryType[] = ['rule', 'preference', 'emotional', 'procedural', 'episodic', 'semantic'];

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function randomMemory(next: () => number, id: string): Memory {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const daysAgo = Math.floor(next() * 120);
  const day = new Date(NOW.getTime() - daysAgo * DAY).toISOString();
  return memory(id, {
    category: pick(CATEGORIES),
    memory_type: pick(TYPES),
    // Few distinct values, so that many memories tie until the id decides.
    priority: 1 + Math.floor(next() * 5),
    created: day,
    updated: next() < 0.5 ? day : '',
    links: next() < 0.1 ? ['other'] : [],
    expires: next() < 0.1 ? formatLocalDate(new Date(NOW.getTime() + (next() - 0.3) * 10 * DAY)) : '',
    hits: Math.floor(next() * 4),
  });
}

const options = { fullMinPriority: 4, digestMinPriority: 3 };
const ids = (list: readonly Memory[]) => list.map((m) => `${m.category}/${m.id}`);

describe('selection sorted from the previous list (daemon)', () => {
  it('gives the same order as a full sort after memories arrive, leave and are rewritten', () => {
    const next = random(7);
    let list: Memory[] = Array.from({ length: 600 }, (_, i) => randomMemory(next, `m${String(i).padStart(4, '0')}`));
    // Same ids in two folders: the order must still be total.
    list.push(memory('m0001', { category: 'news' }), memory('m0001', { category: 'skill' }));
    const roleId = `SORT${Math.floor(next() * 1e6)}`;
    for (let round = 0; round < 6; round++) {
      const frozen = Object.freeze([...list]);
      const kept = selectLongTermMemories(frozen, { ...options, now: NOW, roleId });
      const fresh = selectLongTermMemories([...list], { ...options, now: NOW });
      expect(ids(kept.full)).toEqual(ids(fresh.full));
      expect(ids(kept.digest)).toEqual(ids(fresh.digest));
      // The next list: some removed, some rewritten (new objects for the same files), some new.
      list = list.filter(() => next() > 0.05).map((m) => (next() < 0.03 ? { ...m, priority: 5, updated: NOW.toISOString() } : m));
      for (let i = 0; i < 20; i++) list.push(randomMemory(next, `r${round}-${i}`));
    }
  });

  it('tells when the first live candidate expires', () => {
    const soon = memory('soon', { priority: 4, expires: '2026-12-03' });
    const later = memory('later', { priority: 4, expires: '2026-12-20' });
    const gone = memory('gone', { priority: 4, expires: '2026-11-01' });
    const picked = selectLongTermMemories(Object.freeze([soon, later, gone]), { ...options, now: NOW });
    expect(ids(picked.digest)).toEqual(['daily/later', 'daily/soon']);
    // A bare date is good through that local day.
    expect(picked.until).toBe(new Date(2026, 11, 4).getTime());
  });
});

describe('clarityWindow (PM-2)', () => {
  it('holds the clarity until the moment it changes, and changes then', () => {
    const old = memory('old', { created: '2026-10-01T00:00:00+08:00', updated: '' });
    let at = new Date('2026-10-02T00:00:00+08:00');
    const seen: string[] = [];
    for (;;) {
      const window = clarityWindow(old, at);
      seen.push(window.clarity);
      expect(memoryClarity(old, at)).toBe(window.clarity);
      if (window.until === Infinity) break;
      expect(memoryClarity(old, new Date(Math.ceil(window.until) - 1))).toBe(window.clarity);
      at = new Date(Math.ceil(window.until));
      expect(memoryClarity(old, at)).not.toBe(window.clarity);
    }
    expect(seen).toEqual(['clear', 'faded', 'fuzzy']);
  });

  it('never changes for what never fades', () => {
    expect(clarityWindow(memory('r', { memory_type: 'rule', created: '2020-01-01' }), NOW)).toEqual({ clarity: 'clear', until: Infinity });
  });
});

describe('prepared long-term load reused over time (daemon)', () => {
  const list = Object.freeze([
    memory('fading', { category: 'important', priority: 4, created: '2026-11-01T00:00:00', updated: '' }),
    memory('expiring', { priority: 3, expires: '2026-12-05' }),
    memory('steady', { memory_type: 'rule' }),
  ]);
  const prepare = (memories: readonly Memory[], now: Date) =>
    prepareLongTermMemory(memories, { roleId: 'PREP01', language: 'zh-TW', now, ...options });
  const texts = (prepared: ReturnType<typeof prepare>) => [...prepared.full, ...prepared.digest].map((item) => item.text);

  it('is the same object until something changes, and always the text computed afresh', () => {
    const first = prepare(list, NOW);
    const hourLater = new Date(NOW.getTime() + 3_600_000);
    expect(prepare(list, hourLater)).toBe(first);
    expect(texts(first)).toEqual(texts(prepare([...list], hourLater)));
    // Days on, "fading" is faded and "expiring" is gone: prepared anew, equal to a fresh one.
    for (const days of [3, 5, 40]) {
      const at = new Date(NOW.getTime() + days * DAY);
      const kept = prepare(list, at);
      expect(texts(kept)).toEqual(texts(prepare([...list], at)));
    }
    expect(texts(prepare(list, new Date(NOW.getTime() + 5 * DAY))).join('\n')).not.toContain('summary expiring');
  });

  it('is not reused for an earlier moment', () => {
    const later = prepare(list, new Date(NOW.getTime() + 40 * DAY));
    const earlier = prepare(list, NOW);
    expect(earlier).not.toBe(later);
    expect(texts(earlier)).toEqual(texts(prepare([...list], NOW)));
  });
});
