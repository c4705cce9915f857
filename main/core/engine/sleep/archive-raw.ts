import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { DeferredWrites } from './deferred-writes.js';

/**
 * SLEEP-4 "gzip the raw inbox items to archive/raw/<date>/" (MEM-1): the item's original bytes,
 * so whatever a planner dropped or cut can still be read with gunzip. Idempotent: an archive that
 * already holds the same bytes (an earlier, interrupted apply of this plan) is used as it is; one
 * that holds other bytes keeps them and this item gets `-2`, `-3`…; one that cannot be read at
 * all is what a power cut before the flush barrier leaves and is written again.
 */
function gunzipOrUndefined(file: string): Buffer | undefined {
  try {
    return zlib.gunzipSync(fs.readFileSync(file));
  } catch {
    return undefined;
  }
}

export interface ArchivedRaw {
  archive: string;
  /** False when the archive already held these bytes. */
  written: boolean;
}

/** Archive one inbox file; undefined when the inbox file is gone (archived and removed before). */
export function archiveRawItem(writes: DeferredWrites, inboxFile: string, archiveDir: string): ArchivedRaw | undefined {
  let raw: Buffer;
  try {
    raw = fs.readFileSync(inboxFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const base = path.basename(inboxFile);
  const packed = zlib.gzipSync(raw);
  for (let n = 1; n < 1000; n++) {
    const archive = path.join(archiveDir, n === 1 ? `${base}.gz` : `${base.replace(/\.md$/, '')}-${n}.md.gz`);
    if (!fs.existsSync(archive)) {
      // Only consolidations write archive/raw, under the role's memory lock (see createKnownMissing).
      writes.createKnownMissing(archive, packed);
      return { archive, written: true };
    }
    const held = gunzipOrUndefined(archive);
    if (held === undefined) {
      writes.replace(archive, packed);
      return { archive, written: true };
    }
    if (held.equals(raw)) return { archive, written: false };
  }
  throw new Error(`archive/raw has no free name for ${base} in ${archiveDir}`);
}
