import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { findUrlCredentials } from '../../platform/privacy/url-credentials.js';
import { gitOk, splitZ } from './git.js';
import { newMachineName, readSyncConfig, writeSyncConfig } from './sync-config.js';
import { syncTrees, type TreeName } from './sync-layout.js';
import { syncNow, type SyncRun } from './sync-now.js';
import { prepareTree, setRemote } from './sync-repo.js';

/**
 * `kioku sync init --remote URL`: make the homes git working trees, set up the merge drivers and
 * the remote, then list plainly what would leave the machine — Kioku cannot tell whether a remote
 * is private — and push only after the user agrees (`approve`). Running it again is harmless.
 */
export interface OutgoingGroup {
  /** A role ID, a top-level file, or a folder. */
  name: string;
  files: number;
  bytes: number;
}

export interface OutgoingTree {
  tree: TreeName;
  dir: string;
  branch: string;
  groups: OutgoingGroup[];
}

export interface SyncInitResult {
  machine: string;
  remote: string;
  outgoing: OutgoingTree[];
  approved: boolean;
  run?: SyncRun;
}

export function checkRemoteUrl(url: string): string {
  const trimmed = url.trim();
  if (!trimmed)
    throw new KiokuError('BAD_USAGE', 'the remote URL is empty', {
      hint: 'give a git URL: `kioku sync init --remote git@host:me/kioku.git`',
    });
  if (findUrlCredentials(trimmed).length) {
    throw new KiokuError('REFUSED', 'the remote URL holds a user name and password or token; Kioku does not store credentials', {
      hint: "use an ssh URL (git@host:me/kioku.git) or an https URL without credentials and let git's credential helper keep the token",
    });
  }
  return trimmed;
}

/** What `git add -A` would take from a tree, grouped by its first path segment. */
export function outgoingOf(dir: string, env: NodeJS.ProcessEnv): OutgoingGroup[] {
  const groups = new Map<string, OutgoingGroup>();
  for (const rel of splitZ(gitOk(dir, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { env }))) {
    const name = rel.split('/')[0]!;
    let bytes = 0;
    try {
      bytes = fs.statSync(path.join(dir, rel)).size;
    } catch {
      continue; // deleted since: nothing to send
    }
    const group = groups.get(name) ?? { name, files: 0, bytes: 0 };
    group.files++;
    group.bytes += bytes;
    groups.set(name, group);
  }
  return [...groups.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export async function syncInit(
  config: KiokuConfig,
  options: { remote: string; approve: (outgoing: OutgoingTree[], remote: string) => Promise<boolean>; logger?: Logger },
): Promise<SyncInitResult> {
  const remote = checkRemoteUrl(options.remote);
  const env = config.env;
  const existing = readSyncConfig(config.paths);
  const machine = existing?.machine ?? newMachineName(env);
  const trees = syncTrees(config.paths);
  for (const tree of trees) {
    prepareTree(tree, env);
    setRemote(tree.dir, remote, env);
  }
  writeSyncConfig(config.paths, { machine, approvedAt: existing?.approvedAt ?? null });
  const outgoing = trees.map((tree) => ({ tree: tree.name, dir: tree.dir, branch: tree.branch, groups: outgoingOf(tree.dir, env) }));
  const approved = await options.approve(outgoing, remote);
  if (!approved) return { machine, remote, outgoing, approved: false };
  writeSyncConfig(config.paths, { machine, approvedAt: config.clock.now().toISOString() });
  const run = await syncNow(config, options.logger ? { logger: options.logger } : {});
  return { machine, remote, outgoing, approved: true, run };
}
