import type { HookEvent } from '../../../../common/hook-events.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { releaseOwnLocks } from './role-locks.js';
import { cleanupIdleSessionFiles } from './session-role-file.js';

export interface SessionEndResult {
  /** Role IDs whose lock this session held and released. */
  released: string[];
  /** Other sessions' state files removed for being idle 7 days. */
  staleFilesRemoved: string[];
}

/**
 * SessionEnd (LOCK-4, CALL-3, LOCK-1): release every lock this session holds
 * — after calls there may be several — but only those recorded with its own transcript.
 *
 * The session's `.role` file and role history (role-history.ts) stay, unlike the role skill's
 * role_unload.sh, which removed the state file: Claude Code fires SessionEnd on every exit and
 * `claude -p`, and `--continue`/`--resume` then starts the *same* session with SessionStart
 * `source: resume` (ASSISTANTS.md). Removed, the resumed session came back as the default role —
 * a second, different full load on top of the replayed one (CTX-10 wants a one-line reminder) —
 * and its turns, and any still waiting in the spool, were filed under that role (issue 13).
 * Kept, the resume continues as the role it had and re-claims that role's lock (LOCK-1). They
 * go with the 7-day sweep of `.sessions/`, which runs here too: SessionEnd is the one moment a
 * hook is expected to tidy up, and it is a single readdir. Claude Code gives SessionEnd about
 * 1.5 s; all of this is a few file operations.
 */
export function releaseSessionLocks(
  config: KiokuConfig,
  event: Pick<HookEvent, 'sessionId' | 'transcriptPath'>,
  now: Date = config.clock.now(),
): SessionEndResult {
  const released = releaseOwnLocks(config, event);
  const staleFilesRemoved = cleanupIdleSessionFiles(config, now);
  return { released, staleFilesRemoved };
}
