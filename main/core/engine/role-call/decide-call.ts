import { isKiokuError } from '../../../../common/errors.js';
import type { HookEvent } from '../../../../common/hook-events.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { isInSleepWindow } from '../schedule/sleep-window.js';
import { activationGate } from '../../store/sessions/activation.js';
import {
  claimRole,
  holdsRole,
  releaseOwnLock,
  releaseOwnLocks,
  type LockRemedies,
  type RoleLockHolder,
} from '../../store/sessions/role-locks.js';
import { recordRoleChange, transcriptSize } from '../../store/sessions/role-history.js';
import { sessionKeyOf } from '../../store/sessions/session-key.js';
import { resolveSessionRole, type SessionRole } from '../../store/sessions/session-role.js';
import { readSessionSwitchEvent, writeSessionRole } from '../../store/sessions/session-role-file.js';
import { loadCallableRoles, refreshCallNameCache } from './call-names.js';
import { couldBeCall, matchRoleCall, type RoleCallMatch } from './match-role-call.js';

/**
 * UserPromptSubmit: is this prompt a call by name, and what happens (CALL-1…3; see
 * docs/requirements.md). The handler turns the decision into text; this function does
 * the file work of a switch, in the order CALL-3 requires.
 */
export type CallNoneReason = 'call-disabled' | 'disabled' | 'out-of-scope' | 'no-role-home' | 'not-a-call' | 'same-role';

export type CallDecision =
  /** Say nothing (and nothing was written). */
  | { kind: 'none'; reason: CallNoneReason }
  /** Sleep window: answer as the current self and do not imitate the callee. */
  | { kind: 'asleep-note'; calleeId: string; currentId: string | undefined; call: RoleCallMatch }
  /** The callee is loaded by another live session: explain, with the three remedies. */
  | {
      kind: 'locked-note';
      calleeId: string;
      currentId: string | undefined;
      holder: RoleLockHolder;
      remedies: LockRemedies;
      call: RoleCallMatch;
    }
  /** Switched: inject the callee's persona and memory (same assembly as SessionStart). */
  | {
      kind: 'switch';
      calleeId: string;
      previousId: string | undefined;
      call: RoleCallMatch;
      /** The session's `.role` file key; undefined when the event had neither id nor transcript. */
      sessionKey: string | undefined;
      /** Locks this session gave up in the handover (normally the previous role's). */
      released: string[];
    };

type CallEvent = Pick<HookEvent, 'assistant' | 'sessionId' | 'transcriptPath' | 'cwd' | 'prompt' | 'eventId'>;

const none = (reason: CallNoneReason): CallDecision => ({ kind: 'none', reason });

function currentRole(config: KiokuConfig, event: CallEvent): SessionRole | undefined {
  try {
    return resolveSessionRole(config, event);
  } catch (error) {
    // A broken ROLE_NAME/.active does not stop a call to a valid role; it only means there is
    // no "current" role to compare with or hand over from.
    if (isKiokuError(error)) return undefined;
    throw error;
  }
}

export function decideCall(config: KiokuConfig, event: CallEvent, now: Date = config.clock.now()): CallDecision {
  // Settings and the prompt itself first: they cost no IO, and most prompts end here.
  if (!config.settings.ROLE_CALL_ENABLED) return none('call-disabled');
  if (config.settings.ROLE_ENABLED === false) return none('disabled');
  const markerOnly = config.settings.ROLE_CALL_MARKER_ONLY;
  const prompt = event.prompt ?? '';
  if (!couldBeCall(prompt, { markerOnly })) return none('not-a-call');
  // Calls are gated only by the hard switches, not by "a role resolves": calling is exactly how
  // a session without a usable role (none set, or refused at SessionStart) gets one.
  const blocked = activationGate(config, event);
  if (blocked) return none(blocked);

  const call = matchRoleCall(prompt, loadCallableRoles(config).roles, { markerOnly });
  if (!call) return none('not-a-call');
  const calleeId = call.roleId;
  const current = currentRole(config, event);

  // "Already this role" means loaded, not merely named by `.active`: a session refused the role
  // at SessionStart (or whose lock was taken over after idling) goes on to claim it below.
  if (current?.id === calleeId && holdsRole(config, calleeId, event)) {
    // This very event may already have switched the session: the daemon did it and answered
    // later than the hook waits, and the hook now asks the files. The same event gets the same
    // answer — the callee's load — not "same role, say nothing" (the call would be lost).
    const sessionKey = sessionKeyOf(event);
    if (event.eventId && sessionKey && readSessionSwitchEvent(config, sessionKey) === event.eventId) {
      return { kind: 'switch', calleeId, previousId: undefined, call, sessionKey, released: [] };
    }
    return none('same-role');
  }
  if (isInSleepWindow(config.settings.ROLE_SLEEP_START, config.settings.ROLE_SLEEP_END, now)) {
    return { kind: 'asleep-note', calleeId, currentId: current?.id, call };
  }

  // Handover, CALL-3: callee's lock first; only then record the session's role
  // and let the old lock go. Reversed, a failed take would leave the session with no role at all.
  const claim = claimRole(config, calleeId, event, now);
  if (!claim.ok) return { kind: 'locked-note', calleeId, currentId: current?.id, holder: claim.holder, remedies: claim.remedies, call };
  const sessionKey = sessionKeyOf(event);
  if (sessionKey) {
    try {
      writeSessionRole(config, sessionKey, calleeId, event.eventId);
    } catch (error) {
      // Nothing may change when the switch cannot complete: give back a lock we just took.
      if (claim.how === 'created' || claim.how === 'taken-over') releaseOwnLock(config, calleeId, event);
      throw error;
    }
    try {
      // From here on the transcript's turns are the callee's (issue 19): its reply is written
      // after this hook, so after the transcript's present size.
      recordRoleChange(config, sessionKey, {
        roleId: calleeId,
        how: 'call',
        pos: transcriptSize(event.transcriptPath),
        transcript: event.transcriptPath,
        now,
      });
    } catch {
      /* attribution only: without it, turns are labelled and filed as before */
    }
  }
  const released = releaseOwnLocks(config, event, calleeId);
  try {
    refreshCallNameCache(config);
  } catch {
    /* only a cache: the next prompt parses the roles instead */
  }
  const previousId = current && current.id !== calleeId ? current.id : undefined;
  return { kind: 'switch', calleeId, previousId, call, sessionKey, released };
}
