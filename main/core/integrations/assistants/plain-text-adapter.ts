import type { AssistantName, HookEvent, HookEventName, HookResult } from '../../../../common/hook-events.js';
import type { AssistantAdapter } from './adapter-types.js';
import { eventNames, hookSpecificOutput, looksLikeJson } from './event-names.js';
import { parseStandardEvent } from './parse-event.js';

export interface PlainTextAdapterSpec {
  name: AssistantName;
  /** Kioku's event → the assistant's own event name; an event it lacks is simply left out. */
  events: Partial<Record<HookEventName, string>>;
  /** Leading characters that would make the assistant parse plain context as JSON. */
  jsonStarts: string;
}

/**
 * The assistants whose hooks take plain stdout as context (Claude Code, Codex): the same stdin
 * fields and the same output rules, apart from their event tables and which leading characters
 * make them read stdout as JSON. Context that starts with one of those goes out in the
 * `hookSpecificOutput` form so it is never misread; SubagentStart takes context only in that
 * form; every other event's stdout is ignored or shown to the user, so they get nothing.
 */
export function plainTextAdapter(spec: PlainTextAdapterSpec): AssistantAdapter {
  const names = eventNames(spec.events);
  return {
    name: spec.name,
    ...names,
    parseEvent: (event, stdin, now) =>
      parseStandardEvent(spec.name, event, stdin, now, {
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
          return looksLikeJson(text, spec.jsonStarts) ? hookSpecificOutput(names.nativeEventName(event.event)!, text) : text;
        case 'subagent-start':
          return hookSpecificOutput('SubagentStart', text);
        default:
          return '';
      }
    },
  };
}
