import type Database from 'better-sqlite3';
import { statement } from './statement-cache.js';

/**
 * When a sync must stat every file of a role instead of trusting folder mtimes. An editor that
 * saves in place (VS Code, vim with backupcopy=yes) changes a file without touching its
 * folder's mtime; the daemon's watcher sees that, but the CLI and the hooks run without it, so
 * only a stat of every file (mtime and size against the rows) finds such an edit.
 */

/**
 * How long a full check of a large role is trusted. At 100k files a stat pass costs about 1 s
 * (measured 0.9–1.3 s), a hundred times recall's 10 ms budget, so it is amortised: at most one
 * recall per role in 10 minutes pays it, and the bench's p50 never sees it. The price is that
 * an in-place edit in a large role may stay unseen by recall for up to 10 minutes when no
 * daemon runs; a shorter interval would make that slow recall come more often.
 */
export const FULL_CHECK_INTERVAL_MS = 10 * 60_000;

/**
 * Below this many files a role is stat'ed on every sync, so small roles (most people's) never
 * miss an in-place edit. The cost grows with the role: about 5 µs a file (measured on a 2-core
 * Linux container), so up to ~10 ms just under this limit; lower it if that is too much.
 */
export const SMALL_ROLE_FILES = 2000;

/** The limits above; tests pass their own to reach the large-role path with a few files. */
export interface FullCheckPolicy {
  intervalMs?: number;
  smallRoleFiles?: number;
  /** Wall-clock time in ms (not the recall clock, which a user or test may pin). */
  nowMs?: () => number;
}

export interface FullCheckDecision {
  /** List every folder and stat every file of the role in this sync. */
  statEveryFile: boolean;
  /** When set, record this time as the role's last full check once the sync is applied. */
  stampMs?: number;
}

const metaKey = (role: string) => `last_full_check:${role}`;

/** Indexed files of a role, counted only up to `limit` so the answer costs the same at 100k. */
function roleFilesUpTo(db: Database.Database, role: string, limit: number): number {
  return statement(db, 'SELECT count(*) FROM (SELECT 1 FROM memories WHERE role = ? LIMIT ?)').pluck().get(role, limit) as number;
}

export function lastFullCheck(db: Database.Database, role: string): number | undefined {
  const value = statement(db, 'SELECT value FROM meta WHERE key = ?').pluck().get(metaKey(role)) as string | undefined;
  const ms = value === undefined ? NaN : Number(value);
  return Number.isFinite(ms) ? ms : undefined;
}

export function recordFullCheck(db: Database.Database, role: string, atMs: number): void {
  statement(db, 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(metaKey(role), String(atMs));
}

export function decideFullCheck(db: Database.Database, role: string, policy: FullCheckPolicy = {}): FullCheckDecision {
  const nowMs = (policy.nowMs ?? Date.now)();
  const last = lastFullCheck(db, role);
  // A stamp in the future means the clock was set back: check now rather than wait it out.
  const recent = last !== undefined && nowMs >= last && nowMs - last < (policy.intervalMs ?? FULL_CHECK_INTERVAL_MS);
  // Due (or never done, as on a new index): check and stamp, whatever the role's size. The time
  // before the stat pass is recorded: an edit the pass raced past is at most one interval from
  // the next check.
  if (!recent) return { statEveryFile: true, stampMs: nowMs };
  // Checked recently: only a small role is checked again, and without a stamp (a write per
  // recall for nothing).
  const smallRoleFiles = policy.smallRoleFiles ?? SMALL_ROLE_FILES;
  return { statEveryFile: roleFilesUpTo(db, role, smallRoleFiles) < smallRoleFiles };
}
