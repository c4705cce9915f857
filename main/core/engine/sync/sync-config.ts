import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KiokuPaths } from '../../platform/config/paths.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';

/**
 * This machine's sync settings, `<state dir>/sync.json` — machine-local like everything in the
 * state dir, never committed: the machine's name in commits and leases, and whether the user
 * agreed to the first push. The remote itself lives in git's own config, without credentials.
 */
export interface SyncConfig {
  machine: string;
  /** When the user agreed that the listed files may leave this machine. */
  approvedAt: string | null;
}

export function syncConfigFile(paths: Pick<KiokuPaths, 'stateDir'>): string {
  return path.join(paths.stateDir, 'sync.json');
}

export function readSyncConfig(paths: Pick<KiokuPaths, 'stateDir'>): SyncConfig | undefined {
  try {
    const raw = JSON.parse(fs.readFileSync(syncConfigFile(paths), 'utf8')) as Partial<SyncConfig>;
    if (typeof raw.machine !== 'string' || !raw.machine) return undefined;
    return { machine: raw.machine, approvedAt: typeof raw.approvedAt === 'string' ? raw.approvedAt : null };
  } catch {
    return undefined;
  }
}

export function writeSyncConfig(paths: Pick<KiokuPaths, 'stateDir'>, config: SyncConfig): void {
  writeFileAtomicSync(syncConfigFile(paths), `${JSON.stringify(config, null, 2)}\n`);
}

/** `<host>-<4 hex>`: readable in `sync log`, unique even for two machines named `localhost`. */
export function newMachineName(env: NodeJS.ProcessEnv): string {
  const host =
    (env.KIOKU_MACHINE_NAME || os.hostname() || 'machine')
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 32) || 'machine';
  return env.KIOKU_MACHINE_NAME ? host : `${host}-${randomBytes(2).toString('hex')}`;
}
