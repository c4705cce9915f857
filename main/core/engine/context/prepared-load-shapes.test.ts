import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredMemory } from '../../../../common/memory.js';
import { memoryObject } from '../../../../test/helpers/memory-object.js';
import { isStoredMemory } from './prepared-load-shapes.js';

/** A memory read back from a prepared load must lie in a folder of its own role (the load's `roleDir`). */
describe('isStoredMemory: where the memory is', () => {
  const roleDir = path.join(path.sep, 'home', 'yui', '.kioku-memory', 'PREP01');
  const at = (file: string): StoredMemory => ({ ...memoryObject('m1', { category: 'inbox' }), role: 'PREP01', path: file });
  const accepted = (file: string) => isStoredMemory(at(file), roleDir, ['inbox']);

  it('takes a file in a folder of the role, as Kioku writes it', () => {
    expect(accepted(path.join(roleDir, 'inbox', 'm1.md'))).toBe(true);
    expect(accepted(path.join(roleDir, 'inbox', '20261203-記憶.md'))).toBe(true);
  });

  it.each([
    ['another role', path.join(path.dirname(roleDir), 'OTHR01', 'inbox', 'm1.md')],
    ['a folder whose name starts with the role id', `${roleDir}XY${path.sep}m1.md`],
    ['a role whose id starts the same', `${roleDir}X${path.sep}inbox${path.sep}m1.md`],
    ['the role folder itself', path.join(roleDir, 'm1.md')],
    ['a folder deeper', path.join(roleDir, 'inbox', 'old', 'm1.md')],
    ['a folder climbed out of', `${roleDir}${path.sep}..${path.sep}OTHER01${path.sep}inbox${path.sep}m1.md`],
    ['a relative path', path.join('PREP01', 'inbox', 'm1.md')],
    ['no file name', `${roleDir}${path.sep}inbox${path.sep}`],
  ])('refuses %s', (_what, file) => {
    expect(accepted(file)).toBe(false);
  });
});
