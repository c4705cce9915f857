import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { recordConflict } from './conflict-records.js';
import { mergeBonds, mergeDigests, mergeJournal } from './merge-append-only.js';
import { mergeMemoryText, type TextMerge } from './merge-memory.js';
import { mergeStateJson } from './merge-state.js';
import type { DriverKind } from './sync-layout.js';

/**
 * One git merge driver call (`%O %A %B %P`): the merged text goes into %A and the exit code is 0,
 * always — what cannot be merged keeps ours in place and the other side is recorded for the sync
 * to keep as a conflict copy. A driver that fails (exit 1) would leave conflict markers.
 */
export interface DriverCall {
  kind: DriverKind;
  base: string;
  ours: string;
  theirs: string;
  /** The file's path in the working tree (git's %P). */
  pathName: string;
  /** The working tree (git runs drivers at its top). */
  treeDir: string;
}

/** git's own line-based 3-way merge; undefined when lines conflict. */
export const gitMergeFile: TextMerge = (base, ours, theirs) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-merge-'));
  try {
    const files = ['base', 'ours', 'theirs'].map((name, i) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, [base, ours, theirs][i]!);
      return file;
    });
    const result = spawnSync('git', ['merge-file', '-p', '-q', files[1]!, files[0]!, files[2]!], { encoding: 'utf8', timeout: 30_000 });
    return result.status === 0 ? result.stdout : undefined;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

export function mergeByKind(call: Omit<DriverCall, 'treeDir' | 'pathName'>): { text: string; conflict: boolean } {
  const { kind, base, ours, theirs } = call;
  switch (kind) {
    case 'bonds':
      return { text: mergeBonds(base, ours, theirs), conflict: false };
    case 'digests':
      return { text: mergeDigests(base, ours, theirs), conflict: false };
    case 'journal':
      return { text: mergeJournal(base, ours, theirs), conflict: false };
    case 'state':
      return { text: mergeStateJson(base, ours, theirs), conflict: false };
    case 'lease':
      // The other side is what was already published: first to push holds the lease (sync-lease.ts).
      return { text: ours === base ? theirs : theirs === base ? ours : theirs, conflict: false };
    case 'memory':
      return mergeMemoryText(base, ours, theirs, gitMergeFile);
    case 'text': {
      if (ours === theirs || theirs === base) return { text: ours, conflict: false };
      if (ours === base) return { text: theirs, conflict: false };
      const merged = gitMergeFile(base, ours, theirs);
      return merged === undefined ? { text: ours, conflict: true } : { text: merged, conflict: false };
    }
  }
}

export function runDriver(call: DriverCall, oursFile: string): void {
  const result = mergeByKind(call);
  if (result.conflict) recordConflict(call.treeDir, { path: call.pathName, theirs: call.theirs });
  if (result.text !== call.ours) writeFileAtomicSync(oursFile, result.text, { mkdir: false });
}
