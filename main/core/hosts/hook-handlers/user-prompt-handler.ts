import type { HookEvent, HookResult } from '../../../../common/hook-events.js';
import { decideCall } from '../../engine/role-call/decide-call.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import { languageOfRole, say } from '../../platform/text/context-language.js';
import { saveSnapshot } from '../../engine/context/snapshots.js';
import { lockedContext } from '../../engine/context/special-contexts.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import type { HookContext } from './hook-handler.js';
import { loadRoleContext } from './load-role-context.js';

/**
 * UserPromptSubmit (CALL-1…4). A prompt that is not a call says nothing and writes nothing
 * (decideCall guarantees the second half); a call either loads the callee with the same assembly
 * as SessionStart, or explains why it did not.
 */
export function handleUserPrompt(ctx: HookContext, event: HookEvent): HookResult {
  const { config } = ctx;
  const now = config.clock.now();
  const decision = decideCall(config, event, now);
  if (decision.kind === 'none') return {};
  const callee = readRoleDefinition(config.paths.roleHome, decision.calleeId);
  const language = languageOfRole(callee);
  if (decision.kind === 'asleep-note') {
    // CALL-2: in the sleep window nobody is loaded; the current self answers and does not imitate.
    return {
      additionalContext: say(
        language,
        `使用者點名了${callee.name}（${callee.id}），但現在是睡眠時段，${callee.name}沒有被載入。這一輪以目前的身分回應，不模仿${callee.name}的語氣或身分。`,
        `The user called ${callee.name} (${callee.id}), but it is the sleep window and ${callee.name} was not loaded. This turn is answered as the current self, without imitating ${callee.name}.`,
      ),
    };
  }
  if (decision.kind === 'locked-note') {
    return {
      additionalContext: lockedContext({
        language,
        roleId: callee.id,
        roleName: callee.name,
        ...(decision.holder.sessionKey ? { holderSessionId: decision.holder.sessionKey } : {}),
        ...(decision.holder.since ? { holderSince: decision.holder.since } : {}),
        idleMinutes: config.settings.ROLE_INSTANCE_IDLE_MINUTES,
      }),
    };
  }
  // A switch: one output only for this event, so the load is shrunk to one part (CTX-3).
  const load = loadRoleContext(ctx, event, decision.calleeId, { maxParts: 1, role: callee });
  if (event.sessionId)
    saveSnapshot(config.paths, event.sessionId, load.snapshotParts, { roleId: decision.calleeId, savedAt: formatLocalIso(now) });
  return { additionalContext: load.parts.join('\n\n') };
}
