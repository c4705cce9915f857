import fs from 'node:fs';
import type { KiokuConfig } from '../../platform/config/config.js';
import { listMemoryRoles } from '../../store/memory/memory-layout.js';
import { redactSync } from '../../platform/privacy/redact-sync.js';
import { CONFLICT_MARK } from './conflict-copies.js';
import { git, splitZ } from './git.js';
import { readSyncConfig } from './sync-config.js';
import { syncTrees, type TreeName } from './sync-layout.js';
import { heldByOther, readLease, type Lease } from './sync-lease.js';
import { currentRemote, isRepo } from './sync-repo.js';
import { readSyncRecord, type SyncRecord } from './sync-state.js';

/**
 * `kioku sync status`, and the sync lines of `kioku status`/`diagnose` and the UI: read from the
 * files and git alone (no network): the last sync, what waits to be sent or merged, the conflict
 * copies still to be looked at, and who holds each role's sleep lease.
 */
export interface TreeStatus {
  tree: TreeName;
  dir: string;
  branch: string;
  repo: boolean;
  /** Files changed here and not yet committed. */
  uncommitted: number;
  /** Commits not yet pushed / fetched but not yet merged (as of the last fetch). */
  ahead: number;
  behind: number;
}

export interface SyncStatus {
  configured: boolean;
  approved: boolean;
  machine: string | null;
  remote: string | null;
  intervalMinutes: number;
  last: SyncRecord | null;
  trees: TreeStatus[];
  /** Conflict copies (`.conflict-` in the name), paths inside their tree. */
  conflicts: string[];
  leases: (Lease & { role: string; mine: boolean; active: boolean })[];
}

function treeStatus(
  dir: string,
  branch: string,
  env: NodeJS.ProcessEnv,
): Omit<TreeStatus, 'tree' | 'dir' | 'branch'> & { conflicts: string[] } {
  if (!isRepo(dir)) return { repo: false, uncommitted: 0, ahead: 0, behind: 0, conflicts: [] };
  const porcelain = git(dir, ['status', '--porcelain', '-z'], { env });
  const counts = git(dir, ['rev-list', '--left-right', '--count', `HEAD...refs/remotes/origin/${branch}`], { env });
  let [ahead = 0, behind = 0] = counts.code === 0 ? counts.stdout.trim().split(/\s+/).map(Number) : [];
  if (counts.code !== 0) {
    // Never fetched or never pushed: every local commit waits to be sent.
    const all = git(dir, ['rev-list', '--count', 'HEAD'], { env });
    ahead = all.code === 0 ? Number(all.stdout.trim()) : 0;
    behind = 0;
  }
  const files = git(dir, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { env });
  return {
    repo: true,
    uncommitted: porcelain.code === 0 ? splitZ(porcelain.stdout).length : 0,
    ahead,
    behind,
    conflicts: splitZ(files.stdout).filter((rel) => rel.includes(CONFLICT_MARK) && fs.existsSync(`${dir}/${rel}`)),
  };
}

export function collectSyncStatus(config: KiokuConfig): SyncStatus {
  const sync = readSyncConfig(config.paths);
  const env = config.env;
  const trees: TreeStatus[] = [];
  const conflicts: string[] = [];
  if (sync) {
    for (const tree of syncTrees(config.paths)) {
      const { conflicts: found, ...rest } = treeStatus(tree.dir, tree.branch, env);
      trees.push({ tree: tree.name, dir: tree.dir, branch: tree.branch, ...rest });
      conflicts.push(...found.map((rel) => (tree.name === 'memory' ? rel : `roles/${rel}`)));
    }
  }
  const now = config.clock.now();
  const leases = sync
    ? listMemoryRoles(config.paths.memoryHome).flatMap((role) => {
        const lease = readLease(config.paths.memoryHome, role);
        if (!lease) return [];
        return [
          {
            ...lease,
            role,
            mine: lease.holder === sync.machine,
            active: Date.parse(lease.expires) > now.getTime() && (lease.holder === sync.machine || heldByOther(lease, sync.machine, now)),
          },
        ];
      })
    : [];
  const remote = sync && isRepo(config.paths.memoryHome) ? currentRemote(config.paths.memoryHome, env) : undefined;
  return {
    configured: Boolean(sync),
    approved: Boolean(sync?.approvedAt),
    machine: sync?.machine ?? null,
    // Shown, never stored by Kioku: redacted in case git's config holds a token after all.
    remote: remote ? redactSync(remote) : null,
    intervalMinutes: config.settings.KIOKU_SYNC_INTERVAL_MINUTES,
    last: sync ? (readSyncRecord(config.paths) ?? null) : null,
    trees,
    conflicts,
    leases,
  };
}
