import fs from 'node:fs';
import path from 'node:path';
import { parseSpoolRecord } from '../../../../common/hook-protocol.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { SPOOL_FAILED, SPOOL_PROCESSING, isSpoolFileName } from '../../platform/ipc/spool-writer.js';

/**
 * The capture backlog (issue 13): hook events waiting in `<state>/spool/` for a Kioku that
 * captures them — the daemon or app, or the next `kioku sleep`/`nap`. Without either, turns pile
 * up there unremembered; status and diagnose say how many and since when.
 */
export interface SpoolStatus {
  /** Events waiting (spool/ and spool/processing/). */
  count: number;
  /** When the oldest waiting event was spooled (local time, ISO), from its own record. */
  oldest: string | null;
  /** Whole minutes since then on this clock; 0 when the record claims a time ahead of it. */
  oldestAgeMinutes: number | null;
  /** Events that could not be captured, kept in spool/failed/. */
  failed: number;
}

function names(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter(isSpoolFileName).sort();
  } catch {
    return [];
  }
}

/** The record's own spooledAt; else the wall-clock milliseconds its name starts with. */
function spooledAt(file: string): Date | undefined {
  try {
    const parsed = parseSpoolRecord(fs.readFileSync(file, 'utf8'));
    if (parsed.ok) {
      const at = new Date(parsed.value.spooledAt);
      if (!Number.isNaN(at.getTime())) return at;
    }
  } catch {
    /* taken by an ingester meanwhile */
  }
  const ms = Number(path.basename(file).split('-')[0]);
  return Number.isFinite(ms) && ms > 0 ? new Date(ms) : undefined;
}

export function spoolStatus(config: KiokuConfig): SpoolStatus {
  const dir = config.paths.spoolDir;
  const processing = names(path.join(dir, SPOOL_PROCESSING)).map((name) => path.join(dir, SPOOL_PROCESSING, name));
  const waiting = names(dir).map((name) => path.join(dir, name));
  const files = [...processing, ...waiting];
  const failed = names(path.join(dir, SPOOL_FAILED)).length;
  // Names sort in arrival order, processing/ holds the earliest claimed: the oldest is among the
  // first of each list; the earlier of the two is taken.
  const candidates = [processing[0], waiting[0]].filter((file): file is string => file !== undefined);
  const times = candidates.map(spooledAt).filter((at): at is Date => at !== undefined);
  if (files.length === 0 || times.length === 0) return { count: files.length, oldest: null, oldestAgeMinutes: null, failed };
  const oldest = new Date(Math.min(...times.map((at) => at.getTime())));
  const age = Math.max(0, Math.floor((config.clock.now().getTime() - oldest.getTime()) / 60_000));
  return { count: files.length, oldest: formatLocalIso(oldest), oldestAgeMinutes: age, failed };
}
