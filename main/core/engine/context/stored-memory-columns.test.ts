import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredMemory } from '../../../../common/memory.js';
import { memoryObject } from '../../../../test/helpers/memory-object.js';
import { fromMemoryColumns, toMemoryColumns, type MemoryColumns } from './stored-memory-columns.js';

const roleDir = path.join(path.sep, 'home', 'u', 'memory', 'ROLE01');

function stored(id: string, fields: Partial<StoredMemory> = {}): StoredMemory {
  return {
    ...memoryObject(id, { category: 'inbox', ...fields }),
    role: 'ROLE01',
    path: path.join(roleDir, 'inbox', `${id}.md`),
    ...fields,
  };
}

/** Through JSON, as the prepared load stores them. */
const asStored = (memories: StoredMemory[]) => JSON.parse(JSON.stringify(toMemoryColumns(memories, roleDir, 'ROLE01'))) as MemoryColumns;
const roundTrip = (memories: StoredMemory[]) => fromMemoryColumns(asStored(memories), roleDir, 'ROLE01', ['inbox']);

describe('memories as columns (a prepared load’s inbox and special memories)', () => {
  it('gives back every memory as it was: fields, key order, unknown front matter, whole path', () => {
    const memories = [
      stored('20261201-a', { summary: '部署流程', tags: ['ci', '測試'], body: '主旨：一。\n細節：二。', expires: '2026-12-31' }),
      stored('20261201-b', { extra: { mood: '平靜', nested: { a: [1, 2] } }, hits: 3, strength: 72, links: ['20261130-x'] }),
      stored('20261201-c', { memory_type: 'rule', declarative: 'implicit', retention_stage: 'long_term', sleep_stage: 'rem' }),
      // What is stored only where it differs: a later update, another role, a file not named by its id.
      stored('20261201-d', { updated: '2026-12-01T11:00:00+08:00', role: 'OTHER01', path: path.join(roleDir, 'inbox', 'hand-named.md') }),
    ];
    const back = roundTrip(memories);
    expect(back).toEqual(memories);
    expect(back!.map((memory) => Object.keys(memory))).toEqual(memories.map((memory) => Object.keys(memory)));
    // Each its own objects: nothing read back is shared between two memories.
    expect(back![0]!.extra).not.toBe(back![2]!.extra);
  });

  it('stores what is nearly always the same only where it differs, and few-valued fields as indexes', () => {
    const columns = toMemoryColumns(
      [
        stored('a'),
        stored('b', { extra: { x: 1 }, updated: '2026-12-02T09:00:00+08:00' }),
        stored('c', { role: 'OTHER01', path: path.join(roleDir, 'inbox', 'c-renamed.md'), memory_type: 'rule' }),
      ],
      roleDir,
      'ROLE01',
    );
    expect(columns.extra).toEqual([[1, { x: 1 }]]);
    expect(columns.updated).toEqual([[1, '2026-12-02T09:00:00+08:00']]);
    expect(columns.role).toEqual([[2, 'OTHER01']]);
    expect(columns.path).toEqual([[2, path.join('inbox', 'c-renamed.md')]]);
    expect(columns.category).toEqual([0, 0, 0]);
    expect(columns.memory_type).toEqual([0, 0, 5]);
  });

  it('an empty list is a list', () => {
    expect(roundTrip([])).toEqual([]);
  });

  it('refuses anything not as written', () => {
    const columns = asStored([stored('a'), stored('b')]);
    const refused = (changed: Record<string, unknown>, categories: StoredMemory['category'][] = ['inbox']) =>
      fromMemoryColumns({ ...columns, ...changed }, roleDir, 'ROLE01', categories);
    expect(fromMemoryColumns(columns, roleDir, 'ROLE01', ['important'])).toBeUndefined();
    for (const bad of ['a.md', path.join('inbox', 'deeper', 'a.md'), path.join('..', 'OTHER', 'inbox', 'a.md')])
      expect(refused({ path: [[0, bad]] })).toBeUndefined();
    expect(
      refused({
        extra: [
          [0, { x: 1 }],
          [0, { y: 2 }],
        ],
      }),
    ).toBeUndefined();
    expect(
      refused({
        updated: [
          [1, 'x'],
          [0, 'y'],
        ],
      }),
    ).toBeUndefined();
    expect(refused({ role: [[2, 'OTHER01']] })).toBeUndefined();
    expect(refused({ priority: ['3', 3] })).toBeUndefined();
    expect(refused({ memory_type: [0, 6] })).toBeUndefined();
    expect(refused({ category: [0, -1] })).toBeUndefined();
    expect(refused({ count: 3 })).toBeUndefined();
    expect(refused({ body: undefined })).toBeUndefined();
  });
});
