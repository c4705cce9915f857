import { describe, expect, it } from 'vitest';
import { isPackedFolderHead, packFolderStamps, unpackFolderStamps } from './packed-folder-stamps.js';
import type { FolderStamps } from './prepared-load-stamps.js';

const folder: FolderStamps = {
  category: 'inbox',
  dir: [4096, 1796313460085.169, 1796313924853.11, 2162984],
  racy: false,
  names: ['20260101-a.md', '筆記 2026.md', '20260102-b.md'],
  stamps: [120, 1796313460085.169, 1796313924853.11, 11, 0, 1.5e12, 1.5e12, 12, 99, 0.1, 0.2, 13],
  hashes: { '20260102-b.md': 'abc=' },
};

/** Through JSON, as the prepared load stores it. */
const stored = (value: FolderStamps) => JSON.parse(JSON.stringify(packFolderStamps(value))) as ReturnType<typeof packFolderStamps>;

describe('a folder’s stamps packed into strings (a prepared load’s inbox)', () => {
  it('unpacks to exactly what was packed, floats and CJK names included', () => {
    const packed = stored(folder);
    expect(isPackedFolderHead(packed, 'inbox')).toBe(true);
    expect(packed.files).toBe(3);
    expect(unpackFolderStamps(packed, 'inbox')).toEqual(folder);
  });

  it('an empty folder stays empty', () => {
    const empty = { ...folder, names: [], stamps: [], hashes: {} };
    expect(unpackFolderStamps(stored(empty), 'inbox')).toEqual(empty);
  });

  it('refuses what was not packed whole: a count that is not the names’, a missing or foreign stamp, another folder', () => {
    const packed = stored(folder);
    expect(unpackFolderStamps({ ...packed, files: 2 }, 'inbox')).toBeUndefined();
    expect(unpackFolderStamps({ ...packed, stamps: packed.stamps.replace(/,[^,]*$/, '') }, 'inbox')).toBeUndefined();
    expect(unpackFolderStamps({ ...packed, stamps: packed.stamps.replace(/^[^,]*/, '') }, 'inbox')).toBeUndefined();
    expect(unpackFolderStamps({ ...packed, stamps: packed.stamps.replace(/^[^,]*/, 'x') }, 'inbox')).toBeUndefined();
    expect(unpackFolderStamps({ ...packed, names: packed.names.replace('筆記 2026.md', '.hidden.md') }, 'inbox')).toBeUndefined();
    expect(isPackedFolderHead(packed, 'daily')).toBe(false);
    expect(isPackedFolderHead({ ...packed, names: ['a.md'] }, 'inbox')).toBe(false);
  });
});
