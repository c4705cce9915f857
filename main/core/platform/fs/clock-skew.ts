import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Reading file times against a clock that may not agree with them (issue 11): another machine's
 * mtimes in a synced folder, a clock set back or stepped forward, KIOKU_NOW frozen away from the
 * real time the files are written at. Two rules, shared by the last-interaction clock and the
 * locks:
 *
 * - A time is evidence of something that happened by now only when it is not ahead of now
 *   (capped at now within a small tolerance). A time further ahead says nothing about when: taken
 *   as it is it would keep things "fresh" until the real clock caught up.
 * - Where no time can be trusted, what is seen is: a fingerprint that has stayed unchanged for an
 *   interval measured on the judge's own clock ("sightings").
 */

/** Ahead of the clock by no more than this is timestamp rounding or a coarse file system, not skew. */
export const FUTURE_TOLERANCE_MS = 2_000;

/** `ms` capped at now; undefined when it is not a time or is further ahead than the tolerance. */
export function notAfter(ms: number, nowMs: number): number | undefined {
  if (!Number.isFinite(ms) || ms > nowMs + FUTURE_TOLERANCE_MS) return undefined;
  return Math.min(ms, nowMs);
}

/**
 * When a file was last written, by this machine's reckoning and no later than now: its mtime, or,
 * when the mtime is ahead of the clock, its ctime (which this machine's kernel stamps at every
 * write and every mtime change, a sync tool's included). Undefined when both are ahead.
 */
export function writtenAt(stat: Pick<fs.Stats, 'mtimeMs' | 'ctimeMs'>, nowMs: number): number | undefined {
  return notAfter(stat.mtimeMs, nowMs) ?? notAfter(stat.ctimeMs, nowMs);
}

/** A short digest of what identifies one state of a file (content, inode, size, mtime…). */
export function fingerprint(...parts: Array<string | number | bigint>): string {
  return createHash('sha1').update(parts.map(String).join('\0')).digest('hex');
}

/**
 * Where judges of `lockFile` remember what they saw: `.<name>.seen.tmp` beside it. The temp-file
 * shape (isTempFileName) keeps scanners and role export away from it, and it never names a lock.
 */
export function sightingFile(lockFile: string): string {
  return path.join(path.dirname(lockFile), `.${path.basename(lockFile)}.seen.tmp`);
}

/**
 * How long `print` has been seen unchanged at `lockFile`, in ms on the judge's own clock: 0 the
 * first time (the sighting is recorded, for this process and the next judge alike), then the time
 * since that first sighting. Only a sighting made on this machine counts (another machine's clock
 * is not ours), and one from the judge's future (the clock set back) starts over.
 */
export function unchangedFor(lockFile: string, print: string, nowMs: number): number {
  const file = sightingFile(lockFile);
  const host = os.hostname();
  try {
    const seen = JSON.parse(fs.readFileSync(file, 'utf8')) as { print?: unknown; host?: unknown; since?: unknown };
    if (seen.print === print && seen.host === host && typeof seen.since === 'number' && seen.since <= nowMs) return nowMs - seen.since;
  } catch {
    /* no sighting yet, or a torn one: start again */
  }
  const temp = `${file}.${process.pid}-${Math.random().toString(16).slice(2, 10)}.tmp`;
  try {
    fs.writeFileSync(temp, JSON.stringify({ print, host, since: nowMs }), { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    // A read-only folder: every look is a first sighting, so nothing is judged by age alone.
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      /* nothing was written */
    }
  }
  return 0;
}

export function forgetSightings(lockFile: string): void {
  try {
    fs.rmSync(sightingFile(lockFile), { force: true });
  } catch {
    /* best effort */
  }
}
