import fs from 'node:fs';
import path from 'node:path';
import type { KiokuPaths } from '../../platform/config/paths.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';

/**
 * How the last sync on this machine went, `<state dir>/sync-state.json` (machine-local): what
 * `kioku status`, the tray and the UI show, and the backoff an offline remote earns.
 */
export type SyncOutcome = 'ok' | 'offline' | 'error';

export interface SyncRecord {
  at: string;
  outcome: SyncOutcome;
  message: string;
  /** Consecutive failed attempts (offline or error); 0 after a success. */
  failures: number;
  lastOkAt: string | null;
  /** Conflict copies created by the last sync. */
  conflicts: number;
}

export function syncStateFile(paths: Pick<KiokuPaths, 'stateDir'>): string {
  return path.join(paths.stateDir, 'sync-state.json');
}

export function readSyncRecord(paths: Pick<KiokuPaths, 'stateDir'>): SyncRecord | undefined {
  try {
    const raw = JSON.parse(fs.readFileSync(syncStateFile(paths), 'utf8')) as SyncRecord;
    return typeof raw.at === 'string' ? raw : undefined;
  } catch {
    return undefined;
  }
}

export function writeSyncRecord(paths: Pick<KiokuPaths, 'stateDir'>, record: SyncRecord): void {
  writeFileAtomicSync(syncStateFile(paths), `${JSON.stringify(record, null, 2)}\n`, { durable: false });
}

/** Minutes to wait after `failures` failed attempts: 1, 2, 4, … up to `maxMinutes`. */
export function backoffMinutes(failures: number, maxMinutes: number): number {
  if (failures <= 0) return 0;
  return Math.min(maxMinutes, 2 ** Math.min(failures - 1, 16));
}
