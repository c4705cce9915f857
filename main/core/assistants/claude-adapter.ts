import type { HookEvent, HookResult } from '../../../common/hook-events.js';
import type { AssistantAdapter } from './adapter-types.js';
import { eventNames, hookSpecificOutput, looksLikeJson } from './event-names.js';
import { parseStandardEvent } from './parse-event.js';

const names = eventNames({
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  stop: 'Stop',
  'pre-compact': 'PreCompact',
  'post-compact': 'PostCompact',
  'session-end': 'SessionEnd',
  'subagent-start': 'SubagentStart',
});

/**
 * Claude Code (ASSISTANTS.md). Output: on exit 0, plain stdout becomes context for SessionStart
 * and UserPromptSubmit, but stdout starting with `{` is parsed as JSON — so a context that
 * happens to start with `{` goes out in the JSON form, or Claude Code would misread it.
 * SubagentStart takes context only in the JSON form. Every other event's stdout is ignored or
 * shown to the user, so they get nothing.
 */
export const claudeAdapter: AssistantAdapter = {
  name: 'claude',
  ...names,
  parseEvent: (event, stdin, now) =>
    parseStandardEvent('claude', event, stdin, now, {
      source: ['source'],
      lastAssistantMessage: ['last_assistant_message', 'lastAssistantMessage'],
      reason: ['reason'],
      promptOnStop: false,
    }),
  formatResult(event: HookEvent, result: HookResult): string {
    const text = result.additionalContext ?? '';
    if (text.trim() === '') return '';
    switch (event.event) {
      case 'session-start':
      case 'user-prompt-submit':
        return looksLikeJson(text, '{') ? hookSpecificOutput(names.nativeEventName(event.event)!, text) : text;
      case 'subagent-start':
        return hookSpecificOutput('SubagentStart', text);
      default:
        return '';
    }
  },
};
