import type { AssistantName, HookEvent, HookEventName } from '../../../../common/hook-events.js';
import { stripInjectedText } from './injected-text.js';
import {
  asPayload,
  assignDefined,
  booleanField,
  commonEventFields,
  compactSummaryField,
  sourceField,
  type Payload,
  stringField,
  triggerField,
} from '../../platform/ipc/payload-fields.js';

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
  /** What the assistant itself adds to a prompt after the user's words (Gemini's @-file contents). */
  cleanPrompt?: (prompt: string) => string;
}

/**
 * The user's words in a prompt field: what any hook injected is removed (CTX-6, issue 13 — Gemini
 * hands SessionStart's and BeforeAgent's context back inside `prompt`); undefined when nothing
 * the user typed is left, as for a missing prompt.
 */
function userPrompt(payload: Payload, names: EventFieldNames): string | undefined {
  const raw = stringField(payload, 'prompt');
  if (raw === undefined) return undefined;
  const words = stripInjectedText(names.cleanPrompt ? names.cleanPrompt(raw) : raw);
  return words === '' ? undefined : words;
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
      return assignDefined(out, { prompt: userPrompt(payload, names) });
    case 'stop':
      return assignDefined(out, {
        lastAssistantMessage: stringField(payload, ...names.lastAssistantMessage),
        stopHookActive: booleanField(payload, 'stop_hook_active', 'stopHookActive'),
        prompt: names.promptOnStop ? userPrompt(payload, names) : undefined,
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
