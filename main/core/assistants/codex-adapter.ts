import type { HookEvent, HookResult } from '../../../common/hook-events.js';
import type { AssistantAdapter } from './adapter-types.js';
import { eventNames, hookSpecificOutput, looksLikeJson } from './event-names.js';
import { parseStandardEvent } from './parse-event.js';

// Codex has no SessionEnd (ASSISTANTS.md): its locks are released by the idle timeout (LOCK-2).
const names = eventNames({
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  stop: 'Stop',
  'pre-compact': 'PreCompact',
  'post-compact': 'PostCompact',
  'subagent-start': 'SubagentStart',
});

/**
 * Codex CLI. Stdin is Claude-like (`transcript_path` may be null; PostCompact has no summary).
 * Plain stdout on exit 0 becomes context, but stdout that looks like JSON and is not valid
 * hook JSON makes the hook fail — so text starting with `{` or `[` goes out in the
 * `hookSpecificOutput` form, and so does SubagentStart (whose plain-text handling is not
 * documented; the JSON form is).
 */
export const codexAdapter: AssistantAdapter = {
  name: 'codex',
  ...names,
  parseEvent: (event, stdin, now) =>
    parseStandardEvent('codex', event, stdin, now, {
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
        return looksLikeJson(text, '{[') ? hookSpecificOutput(names.nativeEventName(event.event)!, text) : text;
      case 'subagent-start':
        return hookSpecificOutput('SubagentStart', text);
      default:
        return '';
    }
  },
};
