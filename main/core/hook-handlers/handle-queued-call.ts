import type { HookCall } from '../../../common/hook-protocol.js';
import type { HookEvent } from '../../../common/hook-events.js';
import { adapterFor } from '../assistants/adapters.js';
import { readRecentDialog } from '../assistants/transcripts/recent-dialog.js';
import { handleCapturedTurn } from '../capture/handle-capture.js';
import { handlePostCompact } from '../capture/post-compact.js';
import { activationGate } from '../sessions/activation.js';
import { releaseSessionLocks } from '../sessions/session-end.js';
import { resolveSessionRole } from '../sessions/session-role.js';
import type { HookContext } from './hook-handler.js';

/** The turn that just ended: the last user words from the transcript, the reply from the payload. */
function lastTurn(event: HookEvent): { userText: string; assistantText: string } {
  const dialog = readRecentDialog(event.assistant, event.transcriptPath, { maxTurns: 4, maxChars: 50_000 });
  const lastUser = [...dialog].reverse().find((turn) => turn.role === 'user');
  const lastAssistant = [...dialog].reverse().find((turn) => turn.role === 'assistant');
  // The transcript is written asynchronously and may lag behind the Stop hook (ASSISTANTS.md):
  // the payload's last_assistant_message is the reliable source of the reply.
  return { userText: lastUser?.text ?? '', assistantText: event.lastAssistantMessage ?? lastAssistant?.text ?? '' };
}

/**
 * The daemon's capture queue (CAP-1…7, LOCK-4): Stop and PreCompact become inbox memories,
 * PostCompact keeps the harness's summary, SessionEnd releases the session's locks. Runs only in
 * the daemon (it loads the condensers); every step is idempotent by `eventId`, because the spool
 * delivers at least once.
 */
export async function handleQueuedCall(ctx: HookContext, call: HookCall & { spooledAt?: string }): Promise<void> {
  const { config } = ctx;
  const adapter = adapterFor(call.assistant);
  const when = call.spooledAt ? new Date(call.spooledAt) : config.clock.now();
  const event = adapter.parseEvent(call.event, call.payload, Number.isNaN(when.getTime()) ? config.clock.now() : when);
  if (event.event === 'session-end') {
    releaseSessionLocks(config, event);
    return;
  }
  if (activationGate(config, event) !== undefined) return;
  const role = resolveSessionRole(config, event);
  if (!role) return;
  const base = { eventId: call.eventId, roleId: role.id, assistant: event.assistant, sessionId: event.sessionId ?? null, receivedAt: event.receivedAt };
  if (event.event === 'stop' || event.event === 'pre-compact') {
    const report = await handleCapturedTurn(config, { ...base, trigger: event.event === 'stop' ? 'stop' : 'pre-compact', ...lastTurn(event) });
    ctx.logger.info('capture', `${event.event} ${call.eventId} for ${role.id}: ${report.written.length} written${report.skipped ? `, skipped (${report.skipped})` : ''}`);
  } else if (event.event === 'post-compact') {
    await handlePostCompact(config, {
      ...base,
      ...(event.trigger ? { trigger: event.trigger } : {}),
      ...(event.compactSummary ? { compactSummary: event.compactSummary } : {}),
      payloadKeys: event.payloadKeys,
    });
  }
}
