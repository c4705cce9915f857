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

const sameText = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/**
 * The turn this Stop ended: the reply comes from the payload (the transcript is written
 * asynchronously and may lag behind the hook, ASSISTANTS.md), the user's words from the
 * transcript line before THAT reply. When events are replayed from the spool later, the
 * transcript has grown since; taking its last user line would give every queued turn the words
 * of the newest one.
 */
export function lastTurn(event: Pick<HookEvent, 'assistant' | 'transcriptPath' | 'lastAssistantMessage'>): { userText: string; assistantText: string } {
  const dialog = readRecentDialog(event.assistant, event.transcriptPath, { maxTurns: 40, maxChars: 200_000 });
  const reply = event.lastAssistantMessage;
  let end = dialog.length;
  if (reply) {
    const at = dialog.map((turn, i) => (turn.role === 'assistant' && sameText(turn.text, reply) ? i : -1)).filter((i) => i >= 0).pop();
    if (at !== undefined) end = at;
  }
  const user = dialog.slice(0, end).reverse().find((turn) => turn.role === 'user');
  const assistant = [...dialog].reverse().find((turn) => turn.role === 'assistant');
  return { userText: user?.text ?? '', assistantText: reply ?? assistant?.text ?? '' };
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
