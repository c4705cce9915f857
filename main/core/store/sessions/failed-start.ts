import type { HookEvent } from '../../../../common/hook-events.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { releaseOwnLock } from './role-locks.js';
import { resolveSessionRole } from './session-role.js';

/**
 * Releases the lock a SessionStart claimed before it failed (LOCK-1, LOCK-3), so no other session
 * is refused a role nobody loaded.
 * Design notes: docs/design-notes.md, "main/core/store/sessions/failed-start.ts".
 */
export function releaseAfterFailedStart(config: KiokuConfig, event: Pick<HookEvent, 'sessionId' | 'transcriptPath'>): string[] {
  try {
    const role = resolveSessionRole(config, event);
    return role && releaseOwnLock(config, role.id, event) ? [role.id] : [];
  } catch {
    return [];
  }
}
