import type { HookCall } from '../../../../common/hook-protocol.js';
import type { HookResult } from '../../../../common/hook-events.js';
import { adapterFor } from '../../integrations/assistants/adapters.js';
import { releaseAfterFailedStart } from '../../store/sessions/failed-start.js';
import type { HookContext } from './hook-handler.js';
import { handleSessionStart, type SessionStartOptions } from './session-start-handler.js';
import { handleSubagentStart } from './subagent-start-handler.js';
import { handleUserPrompt } from './user-prompt-handler.js';

/**
 * The answer to one hook event, as the assistant's stdout. The same function runs in the daemon
 * and in the hook client when the daemon does not answer (HOOK-5), so both give the same output
 * for the same files. Events that need no answer get '' here; their work is queued elsewhere.
 */
export function answerHookCall(
  ctx: HookContext,
  call: Pick<HookCall, 'assistant' | 'event' | 'payload'> & { eventId?: string },
  options: SessionStartOptions = {},
): string {
  const adapter = adapterFor(call.assistant);
  const parsed = adapter.parseEvent(call.event, call.payload, ctx.config.clock.now());
  const event = call.eventId ? { ...parsed, eventId: call.eventId } : parsed;
  let result: HookResult = {};
  if (event.event === 'session-start') {
    try {
      result = handleSessionStart(ctx, event, options);
    } catch (error) {
      // It may have claimed the role before failing: no persona, so no lock (LOCK-1).
      releaseAfterFailedStart(ctx.config, event);
      throw error;
    }
  } else if (event.event === 'user-prompt-submit') result = handleUserPrompt(ctx, event);
  else if (event.event === 'subagent-start') result = handleSubagentStart(ctx, event);
  return adapter.formatResult(event, result);
}
