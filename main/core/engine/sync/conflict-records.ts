import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';

/**
 * What a merge driver could not merge: the other side's text, kept in `.git/kioku-sync/conflicts/`
 * until the sync turns it into a linked conflict memory (or a `.conflict-*` copy beside the file).
 * Inside `.git` so that it is never committed and survives a crash between merge and commit.
 */
export interface ConflictRecord {
  /** Path inside the working tree, `/`-separated, as git names it. */
  path: string;
  theirs: string;
}

export function conflictRecordDir(treeDir: string): string {
  return path.join(treeDir, '.git', 'kioku-sync', 'conflicts');
}

export function recordConflict(treeDir: string, record: ConflictRecord): void {
  const file = path.join(conflictRecordDir(treeDir), `${Date.now()}-${randomBytes(4).toString('hex')}.json`);
  writeFileAtomicSync(file, JSON.stringify(record));
}

export function readConflictRecords(treeDir: string): { file: string; record: ConflictRecord }[] {
  const dir = conflictRecordDir(treeDir);
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  const out: { file: string; record: ConflictRecord }[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const record = JSON.parse(fs.readFileSync(file, 'utf8')) as ConflictRecord;
      if (typeof record.path === 'string' && typeof record.theirs === 'string') out.push({ file, record });
    } catch {
      /* half a record cannot be: writes are atomic; anything else is not ours */
    }
  }
  return out;
}
