import type { MemoryCategory } from '../../../../common/memory.js';
import { isFolderHead, isFolderStamps, type FolderHead, type FolderStamps } from './prepared-load-stamps.js';

/**
 * A folder's stamps with its files' names and stamps each in one string, as a prepared load
 * stores its inbox's (prepared-load-file.ts). Only a full check reads them (once in ten minutes
 * for a large role, full-check-policy.ts); every other load needs the folder's own stamp alone,
 * and parsing 1,400 names and 5,600 numbers it would not read was a fifth of reading the load.
 */
export interface PackedFolderStamps extends FolderHead {
  /** How many files: what a load reads of the names without unpacking them. */
  files: number;
  /** The names joined by '/', which no memory file's name holds (isFolderStamps checks it on unpacking). */
  names: string;
  /** The stamps joined by ','. */
  stamps: string;
  hashes: Record<string, string>;
}

export function packFolderStamps(folder: FolderStamps): PackedFolderStamps {
  return {
    category: folder.category,
    dir: folder.dir,
    racy: folder.racy,
    files: folder.names.length,
    names: folder.names.join('/'),
    stamps: folder.stamps.join(','),
    hashes: folder.hashes,
  };
}

/** The packed folder's own stamp and sizes, well formed: what every load reads of it. */
export function isPackedFolderHead(value: unknown, category: MemoryCategory): value is PackedFolderStamps {
  if (!isFolderHead(value, category)) return false;
  const packed = value as Partial<PackedFolderStamps>;
  return (
    Number.isSafeInteger(packed.files) &&
    packed.files! >= 0 &&
    typeof packed.names === 'string' &&
    typeof packed.stamps === 'string' &&
    !!packed.hashes &&
    typeof packed.hashes === 'object'
  );
}

/** The folder's stamps unpacked, or undefined when they are not whole and well formed. */
export function unpackFolderStamps(packed: PackedFolderStamps, category: MemoryCategory): FolderStamps | undefined {
  const names = packed.files === 0 ? [] : packed.names.split('/');
  // Number('') is 0: an empty field is refused here, like any that is not a number.
  const fields = packed.files === 0 ? [] : packed.stamps.split(',');
  if (names.length !== packed.files || fields.some((field) => field.trim() === '')) return undefined;
  const folder: FolderStamps = {
    category: packed.category,
    dir: packed.dir,
    racy: packed.racy,
    names,
    stamps: fields.map(Number),
    hashes: packed.hashes,
  };
  return isFolderStamps(folder, category) && folder.stamps.every(Number.isFinite) ? folder : undefined;
}
