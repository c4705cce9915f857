import { HOOK_EVENTS, type HookEventName } from '../../../../common/hook-events.js';
import type { AssistantAdapter } from './adapter-types.js';

/** `UserPromptSubmit`, `user-prompt-submit`, `user_prompt_submit` and `USERPROMPTSUBMIT` are one name. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Both directions of one assistant's event names. Our own kebab names are always accepted, so
 * `kioku hook stop --assistant gemini` works as well as `kioku hook AfterAgent …`; but our name
 * for an event the assistant lacks is still accepted (the caller chose it), only native names
 * are limited to the assistant's table.
 */
export function eventNames(native: Partial<Record<HookEventName, string>>): Pick<AssistantAdapter, 'eventFromName' | 'nativeEventName'> {
  const lookup = new Map<string, HookEventName>();
  for (const event of HOOK_EVENTS) lookup.set(normalise(event), event);
  for (const [event, name] of Object.entries(native) as [HookEventName, string][]) lookup.set(normalise(name), event);
  return {
    eventFromName: (name) => lookup.get(normalise(name)),
    nativeEventName: (event) => native[event],
  };
}

/**
 * True when an assistant would take plain-text context for JSON: Claude Code parses stdout
 * that starts with `{`; Codex fails a hook whose stdout looks like JSON (`{` or `[`) and is not
 * valid. Such text must go out inside the JSON form instead.
 */
export function looksLikeJson(text: string, openers: string): boolean {
  const first = text.trimStart()[0];
  return first !== undefined && openers.includes(first);
}

/** The general JSON answer both Claude Code and Codex accept for context. */
export function hookSpecificOutput(hookEventName: string, additionalContext: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext } });
}
