import type { HookEvent, HookResult } from '../../../../common/hook-events.js';
import { refreshCallNameCache } from '../../engine/role-call/call-names.js';
import { languageOfRole } from '../../platform/text/context-language.js';
import { loadSnapshot, saveSnapshot, snapshotAction, snapshotMatters } from '../../engine/context/snapshots.js';
import { lockedContext, resumeReminder, sleepingContext } from '../../engine/context/special-contexts.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import { isInSleepWindow } from '../../engine/schedule/sleep-window.js';
import { activation } from '../../store/sessions/activation.js';
import { claimRole } from '../../store/sessions/role-locks.js';
import { recordRoleChange, touch, transcriptSize } from '../../store/sessions/role-history.js';
import { sessionKeyOf } from '../../store/sessions/session-key.js';
import { sessionRoleFilePath } from '../../store/sessions/session-role-file.js';
import { afterTheAnswer, type HookContext } from './hook-handler.js';
import { loadRoleContext } from './load-role-context.js';

function bestEffort(ctx: HookContext, what: string, write: () => unknown): void {
  try {
    write();
  } catch (error) {
    ctx.logger.warn('context', `could not ${what}: ${(error as Error).message}`);
  }
}

/**
 * The role history's entry for this start (issue 19): a fresh session is its role from the first
 * byte of its transcript; a resumed one (or a fork over replayed history) from where it resumes,
 * the turns before being whoever the history already says. A resumed session that keeps a called
 * role also touches its `.role` file: in use, it is not idle, and must outlive the 7-day sweep.
 */
function recordStart(ctx: HookContext, event: HookEvent, roleId: string, fromSessionFile: boolean, now: Date): void {
  const key = sessionKeyOf(event);
  if (!key) return;
  const fresh = event.source !== 'resume' && event.source !== 'fork' && event.source !== 'compact';
  recordRoleChange(ctx.config, key, {
    roleId,
    how: fresh ? 'start' : 'resume',
    pos: fresh ? 0 : transcriptSize(event.transcriptPath),
    transcript: event.transcriptPath,
    now,
  });
  if (fromSessionFile) touch(sessionRoleFilePath(ctx.config, key), now);
}

/** Which SessionStart part this command prints (CTX-3: the load may span several commands). */
export interface SessionStartOptions {
  part?: number;
  parts?: number;
}

function pick(parts: readonly string[], options: SessionStartOptions): string {
  const index = (options.part ?? 1) - 1;
  // With a single registered command, everything is printed by it.
  if ((options.parts ?? 1) <= 1) return parts.join('\n\n');
  return parts[index] ?? '';
}

/**
 * SessionStart (CTX-1…10, LOCK-1, DSH-4): decide whether a persona loads, then inject it —
 * fresh and frozen on startup/clear, a one-line reminder on resume (the harness replays the
 * earlier load), the frozen snapshot after a compaction.
 */
export function handleSessionStart(ctx: HookContext, event: HookEvent, options: SessionStartOptions = {}): HookResult {
  const { config } = ctx;
  const on = activation(config, event);
  // ROLE_ENABLED=1 with no role to load is on but has nothing to say.
  if (!on.on || !on.role) return {};
  const roleId = on.role.id;
  const role = readRoleDefinition(config.paths.roleHome, roleId);
  const language = languageOfRole(role);
  const now = config.clock.now();
  if (isInSleepWindow(config.settings.ROLE_SLEEP_START, config.settings.ROLE_SLEEP_END, now)) {
    // CTX-7: no persona in the sleep window; the conversation is still captured.
    const asleep = sleepingContext({
      language,
      roleName: role.name,
      sleepStart: config.settings.ROLE_SLEEP_START,
      sleepEnd: config.settings.ROLE_SLEEP_END,
    });
    return { additionalContext: (options.part ?? 1) === 1 ? asleep : '' };
  }
  const claim = claimRole(config, roleId, event, now);
  if (!claim.ok) {
    if ((options.part ?? 1) > 1) return {};
    return {
      additionalContext: lockedContext({
        language,
        roleId,
        roleName: role.name,
        ...(claim.holder.sessionKey ? { holderSessionId: claim.holder.sessionKey } : {}),
        ...(claim.holder.since ? { holderSince: claim.holder.since } : {}),
        idleMinutes: config.settings.ROLE_INSTANCE_IDLE_MINUTES,
      }),
    };
  }
  // The call-name cache and the snapshot below are caches (the roles and the load are the truth):
  // a state folder that cannot be written must not cost the session its persona. The call-name
  // cache is read by the next prompt's hook, never by this load.
  afterTheAnswer(ctx, () => bestEffort(ctx, 'refresh the call-name cache', () => refreshCallNameCache(config)));
  if ((options.part ?? 1) === 1)
    bestEffort(ctx, 'record the session role', () => recordStart(ctx, event, roleId, on.role?.source === 'session', now));
  const sessionId = event.sessionId;
  const snapshot = sessionId && snapshotMatters(event.source) ? loadSnapshot(config.paths, sessionId) : undefined;
  const action = snapshotAction(event.source, { snapshotExists: snapshot !== undefined && snapshot.roleId === roleId });
  if (action === 'remind') return { additionalContext: options.part && options.part > 1 ? '' : resumeReminder(language, role.name) };
  if (action === 'reinject-snapshot' && snapshot) return { additionalContext: pick(snapshot.parts, options) };
  const load = loadRoleContext(ctx, event, roleId, { maxParts: options.parts ?? 1, role });
  if (sessionId && (options.part ?? 1) === 1) {
    // Read only by a later event of this session (a resume, a compaction): not on the answer's path.
    afterTheAnswer(ctx, () =>
      bestEffort(ctx, 'save the context snapshot', () =>
        saveSnapshot(config.paths, sessionId, load.snapshotParts, { roleId, savedAt: formatLocalIso(now) }),
      ),
    );
  }
  return { additionalContext: pick(load.parts, options) };
}
