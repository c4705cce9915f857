import type Database from 'better-sqlite3';
import { checkedRecently, SMALL_ROLE_FILES, type FullCheckPolicy } from '../memory/full-check-policy.js';
import { keptUntilChange } from './kept-until-change.js';
import { statement } from './statement-cache.js';

/**
 * When a sync must stat every file of a role instead of trusting folder mtimes: the policy, and
 * why, is shared with the prepared load on disk (store/memory/full-check-policy.ts); here it is
 * applied to the index, which keeps the time of each role's last full check in its meta table.
 */
export { FULL_CHECK_INTERVAL_MS, SMALL_ROLE_FILES, type FullCheckPolicy } from '../memory/full-check-policy.js';

export interface FullCheckDecision {
  /** List every folder and stat every file of the role in this sync. */
  statEveryFile: boolean;
  /** When set, record this time as the role's last full check once the sync is applied. */
  stampMs?: number;
}

const metaKey = (role: string) => `last_full_check:${role}`;

/**
 * Indexed files of a role, counted only up to `limit` so the answer costs the same at 100k. The
 * count is kept until the index changes (kept-until-change.ts): a daemon answering recall after
 * recall would otherwise walk 2,000 index entries for each (0.15 ms of a 5 ms recall at 100k
 * memories, issue 17).
 */
function roleFilesUpTo(db: Database.Database, role: string, limit: number): number {
  const counts = keptUntilChange<number>(db, 'role-files');
  const key = `${limit}:${role}`;
  let count = counts.get(key);
  if (count === undefined) {
    count = statement(db, 'SELECT count(*) FROM (SELECT 1 FROM memories WHERE role = ? LIMIT ?)').pluck().get(role, limit) as number;
    counts.set(key, count);
  }
  return count;
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
  const recent = checkedRecently(last, nowMs, policy);
  // Due (or never done, as on a new index): check and stamp, whatever the role's size. The time
  // before the stat pass is recorded: an edit the pass raced past is at most one interval from
  // the next check.
  if (!recent) return { statEveryFile: true, stampMs: nowMs };
  // Checked recently: only a small role is checked again, and without a stamp (a write per
  // recall for nothing).
  const smallRoleFiles = policy.smallRoleFiles ?? SMALL_ROLE_FILES;
  return { statEveryFile: roleFilesUpTo(db, role, smallRoleFiles) < smallRoleFiles };
}
