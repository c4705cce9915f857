import type { HookEvent } from '../../../common/hook-events.js';
import type { KiokuConfig } from '../config/config.js';
import { releaseOwnLocks } from './role-locks.js';
import { sessionKeyOf } from './session-key.js';
import { cleanupIdleSessionFiles, removeSessionRole } from './session-role-file.js';

export interface SessionEndResult {
  /** Role IDs whose lock this session held and released. */
  released: string[];
  /** True when the session's `.role` file was there and is now gone. */
  sessionFileRemoved: boolean;
  /** Other sessions' state files removed for being idle 7 days. */
  staleFilesRemoved: string[];
}

/**
 * SessionEnd (LOCK-4, seed 000 §記憶歸屬 and §--unlock): release every lock this session holds
 * — after calls there may be several — but only those recorded with its own transcript, and
 * remove its `.role` file. The 7-day sweep of `.sessions/` runs here too: SessionEnd is the one
 * moment a hook is expected to tidy up, and it is a single readdir. Claude Code gives SessionEnd
 * about 1.5 s; all of this is a few file operations.
 */
export function releaseSessionLocks(config: KiokuConfig, event: Pick<HookEvent, 'sessionId' | 'transcriptPath'>, now: Date = config.clock.now()): SessionEndResult {
  const released = releaseOwnLocks(config, event);
  const key = sessionKeyOf(event);
  const sessionFileRemoved = key ? removeSessionRole(config, key) : false;
  const staleFilesRemoved = cleanupIdleSessionFiles(config, now);
  return { released, sessionFileRemoved, staleFilesRemoved };
}
