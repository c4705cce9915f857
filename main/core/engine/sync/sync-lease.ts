import fs from 'node:fs';
import path from 'node:path';
import { describeError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { silentLogger, type Logger } from '../../platform/config/log.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { roleMemoryDir } from '../../store/memory/memory-layout.js';
import { readSyncConfig } from './sync-config.js';
import { syncTrees } from './sync-layout.js';
import { withSyncLock } from './sync-now.js';
import { isRepo } from './sync-repo.js';
import { commitLocal, fetchRemote, mergeRemote, pushBranch, recoverInterrupted, type StepContext } from './tree-steps.js';

/**
 * One sleeper per role (X-SYNC): before consolidating a role on a synced home, a machine merges
 * the remote, and takes the role's lease — `<ID>/.sleep/lease.json`, committed and pushed — only
 * when no other machine holds it unexpired. The first push wins (a rejected push merges and looks
 * again; the lease driver keeps the published lease). Each run renews the lease, so the machine
 * sleeping a role keeps it for the night; a machine that dies lets it expire after
 * KIOKU_SYNC_LEASE_MINUTES. Offline, only the machine that held the lease last sleeps the role.
 */
export interface Lease {
  holder: string;
  taken: string;
  renewed: string;
  expires: string;
}

export type LeaseDecision =
  { ok: true; how: 'not-synced' | 'taken' | 'renewed' | 'offline-own' } | { ok: false; reason: string; holder?: string };

export function leaseFile(memoryHome: string, role: string): string {
  return path.join(roleMemoryDir(memoryHome, role), '.sleep', 'lease.json');
}

export function readLease(memoryHome: string, role: string): Lease | undefined {
  try {
    const raw = JSON.parse(fs.readFileSync(leaseFile(memoryHome, role), 'utf8')) as Lease;
    return typeof raw.holder === 'string' && typeof raw.expires === 'string' ? raw : undefined;
  } catch {
    return undefined;
  }
}

export function heldByOther(lease: Lease | undefined, machine: string, now: Date): boolean {
  return Boolean(lease && lease.holder !== machine && Date.parse(lease.expires) > now.getTime());
}

export async function acquireSleepLease(config: KiokuConfig, role: string, options: { logger?: Logger } = {}): Promise<LeaseDecision> {
  const sync = readSyncConfig(config.paths);
  const memoryHome = config.paths.memoryHome;
  if (!sync?.approvedAt || !isRepo(memoryHome)) return { ok: true, how: 'not-synced' };
  const logger = options.logger ?? silentLogger;
  const tree = syncTrees(config.paths)[0]!;
  const now = config.clock.now();
  const ctx: StepContext = { env: config.env, machine: sync.machine, now };
  const minutes = config.settings.KIOKU_SYNC_LEASE_MINUTES;
  return withSyncLock(config, 60_000, async (): Promise<LeaseDecision> => {
    recoverInterrupted(tree, ctx.env);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await commitLocal(tree, ctx);
      const fetched = fetchRemote(tree, ctx);
      if (fetched.ok && fetched.remoteHasBranch) await mergeRemote(tree, ctx);
      const lease = readLease(memoryHome, role);
      if (heldByOther(lease, sync.machine, now)) {
        return { ok: false, holder: lease!.holder, reason: `${role} sleeps on ${lease!.holder} until ${lease!.expires}` };
      }
      if (!fetched.ok && lease && lease.holder !== sync.machine) {
        return {
          ok: false,
          holder: lease.holder,
          reason: `the remote cannot be reached and ${lease.holder} slept ${role} last; it waits for the next sync`,
        };
      }
      const renewing = lease?.holder === sync.machine && Date.parse(lease.expires) > now.getTime();
      const next: Lease = {
        holder: sync.machine,
        taken: renewing ? lease!.taken : now.toISOString(),
        renewed: now.toISOString(),
        expires: new Date(now.getTime() + minutes * 60_000).toISOString(),
      };
      writeFileAtomicSync(leaseFile(memoryHome, role), `${JSON.stringify(next, null, 2)}\n`);
      await commitLocal(tree, ctx, `${sync.machine}: sleep lease for ${role} until ${next.expires}`);
      if (!fetched.ok) return { ok: true, how: 'offline-own' };
      const pushed = pushBranch(tree, ctx);
      if (pushed.ok) return { ok: true, how: renewing ? 'renewed' : 'taken' };
      if (!pushed.rejected) {
        logger.warn('sync', `sleep lease for ${role}: push failed (${pushed.message}); sleeping as the lease holder offline`);
        return { ok: true, how: 'offline-own' };
      }
      // Someone pushed first: merge theirs and look at the lease again.
    }
    return { ok: false, reason: `could not publish the sleep lease for ${role} (the remote kept changing); it waits for the next check` };
  }).catch((error: unknown): LeaseDecision => ({ ok: false, reason: `sleep lease for ${role}: ${describeError(error)}` }));
}
