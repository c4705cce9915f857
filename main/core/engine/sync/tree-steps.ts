import fs from 'node:fs';
import path from 'node:path';
import { git, gitOk, NETWORK_TIMEOUT_MS, splitZ } from './git.js';
import { conflictRecordDir } from './conflict-records.js';
import { writeConflictCopies } from './conflict-copies.js';
import { resolveUnmerged } from './resolve-unmerged.js';
import { scanStaged, secretRefusal } from './secret-check.js';
import type { SyncTree } from './sync-layout.js';

/**
 * The steps of syncing one working tree — commit what changed here, fetch, merge, push — each
 * on its own so that the sleep lease (sync-lease.ts) can put its own commit between merge and
 * push. Everything runs under the sync lock (sync-now.ts), so no two of these overlap.
 */
export interface StepContext {
  env: NodeJS.ProcessEnv;
  machine: string;
  /** For commit messages; the clock of the config (KIOKU_NOW in tests). */
  now: Date;
}

export function commitEnv(ctx: StepContext): NodeJS.ProcessEnv {
  const name = `Kioku (${ctx.machine})`;
  const email = `kioku@${ctx.machine}.invalid`;
  return { ...ctx.env, GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
}

export function headOf(dir: string, env: NodeJS.ProcessEnv): string | undefined {
  const result = git(dir, ['rev-parse', '-q', '--verify', 'HEAD'], { env });
  return result.code === 0 ? result.stdout.trim() : undefined;
}

/** A sync killed mid-merge (kill -9, power cut): back to the last commit, which holds everything local. */
export function recoverInterrupted(tree: SyncTree, env: NodeJS.ProcessEnv): boolean {
  const gitDir = path.join(tree.dir, '.git');
  // Our git processes died with the sync that held the lock we now hold, so their lock is stale.
  fs.rmSync(path.join(gitDir, 'index.lock'), { force: true });
  if (!fs.existsSync(path.join(gitDir, 'MERGE_HEAD'))) return false;
  if (git(tree.dir, ['merge', '--abort'], { env }).code !== 0) gitOk(tree.dir, ['reset', '-q', '--merge'], { env });
  // The drivers' records belonged to the aborted merge; the next merge records again.
  fs.rmSync(conflictRecordDir(tree.dir), { recursive: true, force: true });
  return true;
}

/** Stage and commit everything not ignored; refuses (and unstages) when a file holds a secret. */
export async function commitLocal(tree: SyncTree, ctx: StepContext, message?: string): Promise<boolean> {
  const env = commitEnv(ctx);
  gitOk(tree.dir, ['add', '-A'], { env });
  if (git(tree.dir, ['diff', '--cached', '--quiet'], { env }).code === 0) return false;
  const findings = await scanStaged(tree.dir, env);
  if (findings.length) {
    git(tree.dir, ['reset', '-q'], { env });
    throw secretRefusal(findings);
  }
  const stat = gitOk(tree.dir, ['diff', '--cached', '--shortstat'], { env }).trim();
  gitOk(tree.dir, ['commit', '-q', '--no-verify', '-m', message ?? `${ctx.machine}: ${stat || 'changes'} (${ctx.now.toISOString()})`], {
    env,
  });
  return true;
}

export type FetchResult = { ok: true; remoteHasBranch: boolean } | { ok: false; message: string };

export function fetchRemote(tree: SyncTree, ctx: StepContext): FetchResult {
  const result = git(tree.dir, ['fetch', '-q', 'origin', `+refs/heads/${tree.branch}:refs/remotes/origin/${tree.branch}`], {
    env: ctx.env,
    timeoutMs: NETWORK_TIMEOUT_MS,
  });
  if (result.code === 0) return { ok: true, remoteHasBranch: true };
  if (/couldn't find remote ref/i.test(result.stderr)) return { ok: true, remoteHasBranch: false };
  return { ok: false, message: result.stderr.trim().split('\n').slice(-2).join(' / ') || `git fetch exit ${result.code}` };
}

/** A merge git refused because files changed here after the commit (a hook wrote meanwhile). */
export class ChangedDuringMerge extends Error {}

/**
 * Merge the fetched branch; returns the conflict copies written. Throws ChangedDuringMerge when
 * files written since the last commit are in the way (commit them and merge again), and an Error
 * when git cannot merge at all.
 */
export async function mergeRemote(tree: SyncTree, ctx: StepContext): Promise<string[]> {
  const env = commitEnv(ctx);
  const ref = `refs/remotes/origin/${tree.branch}`;
  const message = `${ctx.machine}: merge ${tree.branch} from origin`;
  const result = git(tree.dir, ['merge', '-q', '--no-edit', '--allow-unrelated-histories', '-m', message, ref], { env });
  if (result.code !== 0) {
    const settled = resolveUnmerged(tree.dir, env);
    if (settled === 0) {
      const said = (result.stderr || result.stdout).trim().split('\n').slice(0, 3).join(' / ');
      git(tree.dir, ['merge', '--abort'], { env });
      if (/would be overwritten by merge/i.test(said)) throw new ChangedDuringMerge(said);
      throw new Error(`git merge failed in ${tree.dir}: ${said}`);
    }
  }
  const copies = writeConflictCopies(tree.dir);
  if (copies.length) gitOk(tree.dir, ['add', '--', ...copies], { env });
  if (fs.existsSync(path.join(tree.dir, '.git', 'MERGE_HEAD'))) {
    gitOk(tree.dir, ['commit', '-q', '--no-verify', '--no-edit'], { env });
  } else if (copies.length) {
    gitOk(tree.dir, ['commit', '-q', '--no-verify', '-m', `${ctx.machine}: kept both versions of ${copies.length} file(s)`], { env });
  }
  return copies;
}

export type PushResult = { ok: true } | { ok: false; rejected: boolean; message: string };

export function pushBranch(tree: SyncTree, ctx: StepContext): PushResult {
  if (!headOf(tree.dir, ctx.env)) return { ok: true }; // nothing committed anywhere yet
  const result = git(tree.dir, ['push', '-q', '--porcelain', 'origin', `HEAD:refs/heads/${tree.branch}`], {
    env: ctx.env,
    timeoutMs: NETWORK_TIMEOUT_MS,
  });
  if (result.code === 0) return { ok: true };
  const said = `${result.stdout}\n${result.stderr}`;
  const rejected = /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(?:lock|cannot lock)/i.test(said);
  return { ok: false, rejected, message: said.trim().split('\n').slice(-2).join(' / ') };
}

export function changedSince(tree: SyncTree, before: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const after = headOf(tree.dir, env);
  if (!after || after === before) return [];
  const args = before ? ['diff', '--name-only', '-z', before, after] : ['ls-files', '-z'];
  return splitZ(gitOk(tree.dir, args, { env })).map((rel) => path.join(tree.dir, rel));
}
