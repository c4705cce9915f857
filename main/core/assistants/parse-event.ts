import type { AssistantName, HookEvent, HookEventName } from '../../../common/hook-events.js';
import {
  asPayload,
  assignDefined,
  booleanField,
  commonEventFields,
  compactSummaryField,
  sourceField,
  stringField,
  triggerField,
} from './payload-fields.js';

/** Where an assistant keeps the fields whose names differ between assistants. */
export interface EventFieldNames {
  /** session-start: `startup|resume|clear|compact|fork` */
  source: readonly string[];
  /** stop: the reply just given */
  lastAssistantMessage: readonly string[];
  /** session-end */
  reason: readonly string[];
  /** stop: the user's prompt of the turn, when the assistant sends it (Gemini AfterAgent) */
  promptOnStop: boolean;
}

/**
 * The shared parse: common fields plus the ones each event carries. Fields are read only for
 * the event that documents them, so Gemini's SessionStart `trigger: "startup"` is a source and
 * never a compaction trigger.
 */
export function parseStandardEvent(
  assistant: AssistantName,
  event: HookEventName,
  stdin: unknown,
  now: Date,
  names: EventFieldNames,
): HookEvent {
  const payload = asPayload(assistant, stdin);
  const out = commonEventFields(assistant, event, payload, now);
  switch (event) {
    case 'session-start':
      return assignDefined(out, { source: sourceField(payload, ...names.source) });
    case 'user-prompt-submit':
      return assignDefined(out, { prompt: stringField(payload, 'prompt') });
    case 'stop':
      return assignDefined(out, {
        lastAssistantMessage: stringField(payload, ...names.lastAssistantMessage),
        stopHookActive: booleanField(payload, 'stop_hook_active', 'stopHookActive'),
        prompt: names.promptOnStop ? stringField(payload, 'prompt') : undefined,
      });
    case 'pre-compact':
      return assignDefined(out, { trigger: triggerField(payload) });
    case 'post-compact':
      return assignDefined(out, { trigger: triggerField(payload), compactSummary: compactSummaryField(payload) });
    case 'session-end':
      return assignDefined(out, { reason: stringField(payload, ...names.reason) });
    case 'subagent-start':
    default:
      // A name outside HookEventName can only come from an untyped caller: keep the common fields.
      return out;
  }
}
