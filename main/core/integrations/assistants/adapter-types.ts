import type { AssistantName, HookEvent, HookEventName, HookResult } from '../../../../common/hook-events.js';

/**
 * One assistant's quirks, and nothing else (HOOK-3): its hook stdin → the one HookEvent shape,
 * and a HookResult → exactly the stdout it expects. Everything between sees only the common
 * types. Implementations are pure and import only node built-ins (the hook client's hot path).
 */
export interface AssistantAdapter {
  readonly name: AssistantName;
  /**
   * Our event for a name given on the command line or in `hook_event_name`: our own names
   * (`user-prompt-submit`) and the assistant's native ones (`UserPromptSubmit`, Gemini's
   * `BeforeAgent`), in any case and with `-`/`_` or none. Undefined for events Kioku ignores.
   */
  eventFromName(name: string): HookEventName | undefined;
  /** The assistant's own name for our event; undefined when it has no such event (Codex SessionEnd). */
  nativeEventName(event: HookEventName): string | undefined;
  /**
   * Stdin payload → HookEvent. Never throws on an object, whatever its fields; throws a
   * KiokuError for anything else (null, array, string), which the hook client logs.
   */
  parseEvent(event: HookEventName, stdin: unknown, now: Date): HookEvent;
  /** The exact stdout for this result: '' when there is nothing to say or the event takes no answer. */
  formatResult(event: HookEvent, result: HookResult): string;
}
