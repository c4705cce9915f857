/**
 * When a reader of what is derived from the memory files (the index, a role's prepared load on
 * disk) must stat every file instead of trusting its folders' stamps. A save by rename — every
 * write of Kioku's, vim's default — moves the folder's stamp; an editor that saves in place
 * (VS Code, vim with backupcopy=yes) changes a file without touching its folder. The daemon's
 * watcher sees that; a CLI or hook that runs without it sees it only by a stat of every file.
 * One policy for both readers, so an edit in place is seen by recall and by SessionStart within
 * the same window.
 */

/**
 * How long a full check of a large role is trusted. At 100k files a stat pass costs about 1 s
 * (measured 0.9–1.3 s), at 10k about 40–70 ms on top of a hook's whole start, so it is amortised:
 * at most one recall and one load per role in 10 minutes pay it. The price is that an edit in
 * place in a large role may stay unseen for up to 10 minutes when no daemon runs; a shorter
 * interval would make those slow runs come more often.
 */
export const FULL_CHECK_INTERVAL_MS = 10 * 60_000;

/**
 * Below this many files a role is stat'ed every time, so small roles (most people's) never miss
 * an edit in place. The cost grows with the role: about 5 µs a file (measured on a 2-core Linux
 * container), so up to ~10 ms just under this limit; lower it if that is too much.
 */
export const SMALL_ROLE_FILES = 2000;

/** The limits above; tests pass their own to reach the large-role path with a few files. */
export interface FullCheckPolicy {
  intervalMs?: number;
  smallRoleFiles?: number;
  /** Wall-clock time in ms (not the config clock, which a user or test may pin). */
  nowMs?: () => number;
}

/**
 * Whether a full check made at `lastMs` still holds at `nowMs`. A check in the future means the
 * clock was set back: check now rather than wait it out.
 */
export function checkedRecently(lastMs: number | undefined, nowMs: number, policy: FullCheckPolicy = {}): boolean {
  return lastMs !== undefined && nowMs >= lastMs && nowMs - lastMs < (policy.intervalMs ?? FULL_CHECK_INTERVAL_MS);
}
