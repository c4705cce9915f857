import fs from 'node:fs';

/**
 * File times are as coarse as the file system keeps them (a kernel tick; 1–2 s on FAT or HFS+):
 * a file changed this close after it was read may keep the stamp it was read with. Such a file's
 * content is compared instead, or it is not remembered at all (git's "racy" entries).
 */
export const RACY_MS = 2_000;

/**
 * What tells one version of a file from another without reading it: inode, size and both times
 * to the nanosecond the file system keeps. Undefined when the file is not there.
 */
export function fileStamp(file: string): string | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false, bigint: true });
  return stat ? stampOf(stat) : undefined;
}

const stampOf = (stat: fs.BigIntStats) => `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;

/**
 * The file's stamp when it can be trusted to move with the next change: the file was last changed
 * more than RACY_MS before `nowMs` (the real time, not a test's frozen clock). Undefined when the
 * file is not there or changed too recently — then whatever was read from it is not to be kept.
 */
export function settledFileStamp(file: string, nowMs = Date.now()): string | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false, bigint: true });
  if (!stat) return undefined;
  const settledBefore = BigInt(Math.floor(nowMs - RACY_MS)) * 1_000_000n;
  if (stat.mtimeNs >= settledBefore || stat.ctimeNs >= settledBefore) return undefined;
  return stampOf(stat);
}
