import type { HookEvent } from '../../../../common/hook-events.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { releaseOwnLock } from './role-locks.js';
import { resolveSessionRole } from './session-role.js';

/**
 * A SessionStart that failed after claiming its role (LOCK-1) injected no persona, yet the lock
 * said this session was the role: every other session was refused it until SessionEnd or the
 * idle timeout, for a role nobody had loaded. seed 000 §--unlock: "寧可誤放行也不要誤鎖". So the
 * role the session would have loaded is released when its own lock holds it. Called only on that
 * failure path, never on the hot one; never throws (the caller is already handling an error).
 * Returns the role IDs released.
 */
export function releaseAfterFailedStart(config: KiokuConfig, event: Pick<HookEvent, 'sessionId' | 'transcriptPath'>): string[] {
  try {
    const role = resolveSessionRole(config, event);
    return role && releaseOwnLock(config, role.id, event) ? [role.id] : [];
  } catch {
    return [];
  }
}
