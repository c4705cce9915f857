import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredMemory } from '../../../../common/memory.js';
import { memoryObject } from '../../../../test/helpers/memory-object.js';
import { fromMemoryColumns, toMemoryColumns } from './stored-memory-columns.js';

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
const roundTrip = (memories: StoredMemory[]) =>
  fromMemoryColumns(JSON.parse(JSON.stringify(toMemoryColumns(memories, roleDir))), roleDir, ['inbox']);

describe('memories as columns (a prepared load’s inbox and special memories)', () => {
  it('gives back every memory as it was: fields, key order, unknown front matter, whole path', () => {
    const memories = [
      stored('20261201-a', { summary: '部署流程', tags: ['ci', '測試'], body: '主旨：一。\n細節：二。', expires: '2026-12-31' }),
      stored('20261201-b', { extra: { mood: '平靜', nested: { a: [1, 2] } }, hits: 3, strength: 72, links: ['20261130-x'] }),
      stored('20261201-c', { memory_type: 'rule', declarative: 'implicit', retention_stage: 'long_term', sleep_stage: 'rem' }),
    ];
    const back = roundTrip(memories);
    expect(back).toEqual(memories);
    expect(back!.map((memory) => Object.keys(memory))).toEqual(memories.map((memory) => Object.keys(memory)));
    // Each its own objects: nothing read back is shared between two memories.
    expect(back![0]!.extra).not.toBe(back![2]!.extra);
  });

  it('stores paths relative to the role folder and only the unknown front matter there is', () => {
    const columns = toMemoryColumns([stored('a'), stored('b', { extra: { x: 1 } })], roleDir);
    expect(columns.path).toEqual([path.join('inbox', 'a.md'), path.join('inbox', 'b.md')]);
    expect(columns.extra).toEqual([[1, { x: 1 }]]);
  });

  it('an empty list is a list', () => {
    expect(roundTrip([])).toEqual([]);
  });

  it('refuses a folder the caller did not allow, and a path that is not a file two below the role folder', () => {
    const columns = JSON.parse(JSON.stringify(toMemoryColumns([stored('a')], roleDir)));
    expect(fromMemoryColumns(columns, roleDir, ['important'])).toBeUndefined();
    for (const bad of ['a.md', path.join('inbox', 'deeper', 'a.md'), path.join('..', 'OTHER', 'inbox', 'a.md')])
      expect(fromMemoryColumns({ ...columns, path: [bad] }, roleDir, ['inbox'])).toBeUndefined();
    expect(
      fromMemoryColumns(
        {
          ...columns,
          extra: [
            [0, { x: 1 }],
            [0, { y: 2 }],
          ],
        },
        roleDir,
        ['inbox'],
      ),
    ).toBeUndefined();
    expect(fromMemoryColumns({ ...columns, priority: ['3'] }, roleDir, ['inbox'])).toBeUndefined();
    expect(fromMemoryColumns({ ...columns, count: 2 }, roleDir, ['inbox'])).toBeUndefined();
  });
});
