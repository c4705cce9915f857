import { describe, expect, it } from 'vitest';
import { memoryObject as memory } from '../../../../test/helpers/memory-object.js';
import type { Memory } from '../../../../common/memory.js';
import { longTermMemoryBlock } from './memory-block.js';
import { memoryClarity, retrievability, splitGist } from '../../store/memory/memory-clarity.js';
import { selectLongTermMemories } from './memory-selection.js';

// Noon on 2026-12-01 in the zone the test runs in: the product reads dates (expiry, ages) in
// local time, so "now" must be a local time too, not a Taipei instant.
const NOW = new Date(2026, 11, 1, 12, 0);

const options = { fullMinPriority: 4, digestMinPriority: 3, now: NOW };
const block = (memories: Memory[], limit = 4000, extra: { digestLimit?: number } = {}) =>
  longTermMemoryBlock(memories, {
    roleId: 'ENGINEER01',
    language: 'zh-TW',
    now: NOW,
    limit,
    fullMinPriority: 4,
    digestMinPriority: 3,
    ...extra,
  });

describe('selectLongTermMemories (CTX-4)', () => {
  it('puts important/interest at the full-text priority in full, the rest as digests, never the inbox or expired', () => {
    const picked = selectLongTermMemories(
      [
        memory('imp5', { category: 'important', priority: 5 }),
        memory('int4', { category: 'interest', priority: 4 }),
        memory('imp3', { category: 'important', priority: 3 }),
        memory('skill3', { category: 'skill', priority: 3 }),
        memory('inbox', { category: 'inbox', priority: 5 }),
        memory('gone', { category: 'important', priority: 5, expires: '2026-11-30' }),
        memory('low', { category: 'other', priority: 2 }),
      ],
      options,
    );
    expect(picked.full.map((m) => m.id)).toEqual(['imp5', 'int4']);
    expect(picked.digest.map((m) => m.id).sort()).toEqual(['imp3', 'skill3']);
  });

  it('lets linked, warm and durable-type memories below the digest priority through', () => {
    const picked = selectLongTermMemories(
      [
        memory('linked', { priority: 1, links: ['x'] }),
        memory('warm', { priority: 1, relevance: ['emotional'] }),
        memory('rule', { priority: 1, memory_type: 'rule' }),
        memory('plain', { priority: 2, memory_type: 'episodic' }),
      ],
      options,
    );
    expect(picked.digest.map((m) => m.id).sort()).toEqual(['linked', 'rule', 'warm']);
  });

  it('orders by value: warmth before type weight (MEM-6), emotional above procedural, episodic level with semantic (MEM-5)', () => {
    const picked = selectLongTermMemories(
      [
        memory('semantic', { memory_type: 'semantic', updated: '2026-11-01' }),
        memory('episodic', { memory_type: 'episodic', updated: '2026-11-02' }),
        memory('procedural', { memory_type: 'procedural' }),
        memory('emotional', { memory_type: 'emotional' }),
        memory('rule', { memory_type: 'rule' }),
        memory('warm-semantic', { memory_type: 'semantic', relevance: ['emotional'] }),
      ],
      options,
    );
    expect(picked.digest.map((m) => m.id)).toEqual(['warm-semantic', 'rule', 'emotional', 'procedural', 'episodic', 'semantic']);
  });
});

describe('PM-2 clarity', () => {
  it('is clear when fresh, faded after a few weeks, fuzzy after a few months', () => {
    expect(memoryClarity(memory('a'), NOW)).toBe('clear');
    expect(memoryClarity(memory('b', { updated: '2026-10-25', created: '2026-10-25' }), NOW)).toBe('faded');
    expect(memoryClarity(memory('c', { updated: '2026-06-01', created: '2026-06-01' }), NOW)).toBe('fuzzy');
  });

  it('decays slower with recalls and strength, and never for rule/preference/emotional/priority 5', () => {
    const old = { updated: '2026-10-25', created: '2026-10-25' };
    expect(retrievability(memory('r', { ...old, hits: 6, strength: 100 }), NOW)).toBeGreaterThan(retrievability(memory('n', old), NOW));
    const ancient = { updated: '2020-01-01', created: '2020-01-01' };
    for (const fields of [{ memory_type: 'rule' }, { memory_type: 'preference' }, { memory_type: 'emotional' }, { priority: 5 }] as const) {
      expect(memoryClarity(memory('x', { ...ancient, ...fields }), NOW)).toBe('clear');
    }
  });

  it('splits gist and detail by label or by first paragraph (PM-1)', () => {
    expect(splitGist('主旨：討厭早上開會。\n\n細節：\n三次提到。')).toEqual({ gist: '討厭早上開會。', detail: '三次提到。' });
    expect(splitGist('first para\n\nsecond\n\nthird')).toEqual({ gist: 'first para', detail: 'second\n\nthird' });
  });
});

describe('longTermMemoryBlock', () => {
  it('tells a faded full-text memory by its gist only and a fuzzy one as a question about its tags', () => {
    const text = block([
      memory('faded', {
        category: 'important',
        priority: 4,
        summary: '會議時間',
        body: '主旨：討厭早上開會。\n細節：三次提到，腦子還沒開機。',
        updated: '2026-10-25',
        created: '2026-10-25',
      }),
      memory('fuzzy', {
        category: 'daily',
        priority: 3,
        summary: '吵架的原因',
        tags: ['吵架', '週末'],
        updated: '2026-03-01',
        created: '2026-03-01',
      }),
    ]).text;
    expect(text).toContain('討厭早上開會');
    expect(text).not.toContain('腦子還沒開機');
    expect(text).toContain('已淡去');
    expect(text).toMatch(/好像有過一件和「吵架、週末」有關的事？/);
    expect(text).not.toContain('吵架的原因');
  });

  it('shows a condition-scoped expiry as a scope label with the day it was granted, and a future date as "until"', () => {
    const text = block([
      memory('scoped', {
        category: 'important',
        priority: 5,
        expires: '這個 PR 合併後失效',
        summary: '可以直接推 main',
        created: '2026-11-28T10:00:00',
      }),
      memory('dated', { category: 'skill', expires: '2026-12-31' }),
    ]).text;
    expect(text).toContain('有效範圍：這個 PR 合併後失效（2026-11-28 授權）');
    expect(text).toContain('有效至 2026-12-31');
  });

  it('never injects a session grant, with or without its session id, even on the day it was granted (issue 12)', () => {
    const text = block([
      memory('seed-era', {
        category: 'important',
        priority: 5,
        expires: '本工作階段',
        summary: '這次可以直接 force push',
        created: '2026-12-01T09:00:00',
      }),
      memory('bound', {
        category: 'important',
        priority: 5,
        expires: '本工作階段（session s-1，2026-12-01 授權）',
        summary: '先跳過 lint',
      }),
      memory('kept', { category: 'important', priority: 5, summary: '偏好 pnpm' }),
    ]).text;
    expect(text).toContain('偏好 pnpm');
    expect(text).not.toContain('force push');
    expect(text).not.toContain('跳過 lint');
    expect(text).not.toContain('本工作階段');
  });

  it('shows full text first, digests by category skill → news → daily → other, within the limit', () => {
    const memories = [
      memory('o', { category: 'other', summary: 'OTHER' }),
      memory('d', { category: 'daily', summary: 'DAILY' }),
      memory('n', { category: 'news', summary: 'NEWS' }),
      memory('s', { category: 'skill', summary: 'SKILL' }),
      memory('i', { category: 'important', priority: 5, summary: 'IMPORTANT', body: 'full body text' }),
    ];
    const result = block(memories);
    const order = ['IMPORTANT', 'full body text', 'SKILL', 'NEWS', 'DAILY', 'OTHER'].map((word) => result.text.indexOf(word));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(result).toMatchObject({ shown: 5, omitted: 0 });
  });

  it('keeps items whole, counts the rest honestly, and stays within its budget', () => {
    const memories = Array.from({ length: 40 }, (_, i) =>
      memory(`m${i}`, { category: 'skill', summary: `第 ${i} 則技能：${'很長的說明。'.repeat(8)}` }),
    );
    const result = block(memories, 1200);
    expect(result.text.length).toBeLessThanOrEqual(1200);
    expect(result.shown + result.omitted).toBe(40);
    expect(result.omitted).toBeGreaterThan(0);
    expect(result.text).toContain(`（另有 ${result.omitted} 則長期記憶因篇幅未列出）`);
    for (const line of result.text.split('\n').filter((l) => l.startsWith('- '))) expect(line.endsWith('。')).toBe(true);
  });

  it('is off at a budget of 0 and can cap the digest part alone', () => {
    const memories = [memory('i', { category: 'important', priority: 5 }), memory('s', { category: 'skill' })];
    expect(block(memories, 0)).toMatchObject({ text: '', shown: 0, omitted: 0 });
    const capped = block(memories, 4000, { digestLimit: 0 });
    expect(capped).toMatchObject({ shown: 1, omitted: 1, digestLength: 0 });
  });

  it('injects {{placeholders}} in memory text as written (DSH-7)', () => {
    const text = block([memory('t', { category: 'important', priority: 5, summary: '模板 {{name}}', body: 'Hello {{user}} $& $1' })]).text;
    expect(text).toContain('模板 {{name}}');
    expect(text).toContain('Hello {{user}} $& $1');
  });
});
