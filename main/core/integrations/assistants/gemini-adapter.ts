import type { HookEvent, HookResult } from '../../../../common/hook-events.js';
import type { AssistantAdapter } from './adapter-types.js';
import { eventNames, hookSpecificOutput } from './event-names.js';
import { parseStandardEvent } from './parse-event.js';
import { withoutReferencedFiles } from './transcripts/gemini-transcript.js';

// Gemini CLI's own lifecycle names. It has no PostCompact and no SubagentStart.
const names = eventNames({
  'session-start': 'SessionStart',
  'user-prompt-submit': 'BeforeAgent',
  stop: 'AfterAgent',
  'pre-compact': 'PreCompress',
  'session-end': 'SessionEnd',
});

/**
 * Gemini CLI. On exit 0 stdout must be JSON and nothing else, so context always goes out as
 * `hookSpecificOutput` (hookEventName is Gemini's own name) and "nothing to say" is empty
 * stdout, never plain text. AfterAgent carries the reply as `prompt_response` and the user's
 * prompt as `prompt` — together with the hooks' `<hook_context>` blocks and the @-mentioned files,
 * both removed here (issue 13); some versions name SessionStart's source and SessionEnd's reason
 * `trigger`.
 */
export const geminiAdapter: AssistantAdapter = {
  name: 'gemini',
  ...names,
  parseEvent: (event, stdin, now) =>
    parseStandardEvent('gemini', event, stdin, now, {
      source: ['source', 'trigger'],
      lastAssistantMessage: ['prompt_response', 'last_assistant_message'],
      reason: ['reason', 'trigger'],
      promptOnStop: true,
      cleanPrompt: withoutReferencedFiles,
    }),
  formatResult(event: HookEvent, result: HookResult): string {
    const text = result.additionalContext ?? '';
    if (text.trim() === '') return '';
    const native = names.nativeEventName(event.event);
    if (event.event !== 'session-start' && event.event !== 'user-prompt-submit') return '';
    return hookSpecificOutput(native!, text);
  },
};
