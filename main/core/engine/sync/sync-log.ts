import type { KiokuConfig } from '../../platform/config/config.js';
import { git } from './git.js';
import { syncTrees, type TreeName } from './sync-layout.js';
import { isRepo } from './sync-repo.js';

/** `kioku sync log`: the latest commits of each tree — which machine, when, and what changed. */
export interface SyncLogEntry {
  tree: TreeName;
  commit: string;
  at: string;
  author: string;
  subject: string;
}

export function readSyncLog(config: KiokuConfig, count: number): SyncLogEntry[] {
  const entries: SyncLogEntry[] = [];
  for (const tree of syncTrees(config.paths)) {
    if (!isRepo(tree.dir)) continue;
    const result = git(tree.dir, ['log', `-n${count}`, '--format=%h%x1f%aI%x1f%an%x1f%s'], { env: config.env });
    if (result.code !== 0) continue; // no commit yet
    for (const line of result.stdout.split('\n').filter(Boolean)) {
      const [commit = '', at = '', author = '', subject = ''] = line.split('\x1f');
      entries.push({ tree: tree.name, commit, at, author, subject });
    }
  }
  return entries.sort((a, b) => b.at.localeCompare(a.at)).slice(0, count);
}
