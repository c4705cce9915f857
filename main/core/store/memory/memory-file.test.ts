import { describe, expect, it } from 'vitest';
import { fileNameForId, gistOf, newMemoryId, parseMemory, serializeMemory, toStringList } from './memory-file.js';

const SEED_STYLE = `---
id: 20261101-101500-ab12
category: important
summary: 使用者說: 喜歡簡潔的回覆
tags: 偏好, 回覆風格
priority: 5
relevance: explicit,emotional
memory_type: preference
created: 2026/11/01 10:15:00
custom_field: keep me
---

主旨：喜歡簡潔

細節：不要客套。{{not a template}}
`;

describe('parseMemory', () => {
  it('reads a seed-style file and fills missing fields with defaults', () => {
    const m = parseMemory(SEED_STYLE, { folderCategory: 'important' });
    expect(m).toMatchObject({
      id: '20261101-101500-ab12',
      summary: '使用者說: 喜歡簡潔的回覆',
      tags: ['偏好', '回覆風格'],
      priority: 5,
      relevance: ['explicit', 'emotional'],
      memory_type: 'preference',
      declarative: 'explicit',
      retention_stage: 'long_term',
      updated: '2026/11/01 10:15:00',
      hits: 0,
      strength: 80,
      extra: { custom_field: 'keep me' },
    });
    expect(m.body).toContain('{{not a template}}');
  });

  it('derives what a bare file lacks from its folder and name', () => {
    const m = parseMemory('# 剪頭髮\n\n使用者昨天去剪了頭髮', {
      folderCategory: 'inbox',
      fileId: 'abc',
      fileTime: '2026-01-01T00:00:00.000Z',
    });
    expect(m).toMatchObject({
      id: 'abc',
      category: 'inbox',
      summary: '剪頭髮',
      memory_type: 'episodic',
      retention_stage: 'working',
      sleep_stage: 'encoding',
      created: '2026-01-01T00:00:00.000Z',
    });
  });

  it('clamps priority and rejects binary', () => {
    expect(parseMemory('---\npriority: 9\n---\nx').priority).toBe(5);
    expect(() => parseMemory('a\u0000b')).toThrow(/NUL/);
    expect(() => parseMemory('  \n')).toThrow(/empty/);
  });

  it('round-trips through serializeMemory without losing unknown keys', () => {
    const m = parseMemory(SEED_STYLE, { folderCategory: 'important' });
    const again = parseMemory(serializeMemory(m), { folderCategory: 'important' });
    expect(again).toEqual(m);
  });
});

describe('helpers', () => {
  it('splits lists written in any of the usual ways', () => {
    expect(toStringList('a, b，c、d')).toEqual(['a', 'b', 'c', 'd']);
    expect(toStringList(['x', 2])).toEqual(['x', '2']);
    expect(toStringList(null)).toEqual([]);
  });

  it('makes sortable, unique ids and safe file names', () => {
    const a = newMemoryId(new Date(2026, 0, 2, 3, 4, 5));
    expect(a).toMatch(/^20260102-030405-[0-9a-f]{6}$/);
    expect(newMemoryId(new Date(2026, 0, 2, 3, 4, 5))).not.toBe(a);
    const unsafe = fileNameForId('../../etc/passwd');
    expect(unsafe).not.toMatch(/[/\\]|^\./);
    expect(unsafe.endsWith('.md')).toBe(true);
  });

  it('takes the gist from the first meaningful line', () => {
    expect(gistOf('\n主旨：使用者討厭早上的會議\n細節：…')).toBe('使用者討厭早上的會議');
  });
});
