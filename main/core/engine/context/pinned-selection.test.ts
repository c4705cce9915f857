import { describe, expect, it } from 'vitest';
import type { Memory } from '../../../../common/memory.js';
import { memoryObject as memory } from '../../../../test/helpers/memory-object.js';
import { forgetReason } from '../../store/memory/forget.js';
import { longTermMemoryBlock } from './memory-block.js';
import { memoryClarity } from '../../store/memory/memory-clarity.js';
import { selectLongTermMemories } from './memory-selection.js';

// Local noon: the product reads dates in the zone it runs in.
const NOW = new Date(2026, 11, 1, 12, 0);
const pinned = { extra: { pinned: true } };
const block = (memories: Memory[], limit: number, digestLimit?: number) =>
  longTermMemoryBlock(memories, {
    roleId: 'ENGINEER01',
    language: 'zh-TW',
    now: NOW,
    limit,
    fullMinPriority: 4,
    digestMinPriority: 3,
    ...(digestLimit === undefined ? {} : { digestLimit }),
  });

describe('a pinned memory (issue 16)', () => {
  it('is loaded whatever its priority, ahead of every unpinned memory', () => {
    const picked = selectLongTermMemories(
      [
        memory('rule', { priority: 5, memory_type: 'rule' }),
        memory('low', { priority: 1, memory_type: 'episodic', ...pinned }),
        memory('plain-low', { priority: 1, memory_type: 'episodic' }),
      ],
      { fullMinPriority: 4, digestMinPriority: 3, now: NOW },
    );
    expect(picked.digest.map((m) => m.id)).toEqual(['low', 'rule']);
  });

  it('stays inside a budget that cuts everything around it, full texts and shrunk summaries alike', () => {
    const big = 'x'.repeat(300);
    const memories = [
      memory('full-a', { category: 'important', priority: 5, memory_type: 'rule', body: big }),
      memory('full-b', { category: 'important', priority: 5, memory_type: 'rule', body: big }),
      memory('digest-a', { priority: 3, memory_type: 'rule', summary: '常用的規則甲' }),
      memory('pin', { priority: 1, memory_type: 'episodic', summary: '使用者釘選的記憶', ...pinned }),
    ];
    const tight = block(memories, 500);
    expect(tight.text).toContain('使用者釘選的記憶');
    expect(tight.omitted).toBeGreaterThan(0);
    // Without the pin the same budget drops it first: the test can fail.
    const unpinned = block(
      memories.map((m) => (m.id === 'pin' ? { ...m, extra: {} } : m)),
      500,
    );
    expect(unpinned.text).not.toContain('使用者釘選的記憶');
    expect(block(memories, 4000, 1).text).toContain('使用者釘選的記憶');
  });

  it('never fades and is never forgotten, though an expired one is no longer loaded', () => {
    const old = {
      category: 'daily' as const,
      priority: 1,
      memory_type: 'episodic' as const,
      created: '2026-06-01T10:00:00',
      updated: '2026-06-01T10:00:00',
    };
    expect(memoryClarity(memory('old', old), NOW)).toBe('fuzzy');
    expect(memoryClarity(memory('old', { ...old, ...pinned }), NOW)).toBe('clear');
    const stored = (m: Memory) => ({ ...m, role: 'ENGINEER01', path: '/x.md' });
    expect(forgetReason(stored(memory('old', old)), NOW)).toMatch(/^daily, not updated/);
    expect(forgetReason(stored(memory('old', { ...old, ...pinned })), NOW)).toBeUndefined();
    const expired = memory('grant', { ...pinned, expires: '2026-11-30' });
    expect(forgetReason(stored(expired), NOW)).toBeUndefined();
    const picked = selectLongTermMemories([expired], { fullMinPriority: 4, digestMinPriority: 3, now: NOW });
    expect(picked.digest).toEqual([]);
  });
});
