import { stripTaggedBlocks } from './transcripts/transcript-text.js';

/**
 * Text a hook (Kioku's own, or any other) put into the conversation, as each assistant wraps it
 * when it lands in a user message or a prompt field (CTX-6, issue 13). None of it was said by the
 * user, so none of it may become the user's words in a memory or a call by name:
 * - Gemini CLI: `<hook_context>…</hook_context>` — SessionStart's context goes into the first user
 *   message before the prompt, BeforeAgent's after it, and AfterAgent's `prompt` carries the
 *   combined text (ASSISTANTS.md §Seen with the real clients).
 * - Claude Code: `<system-reminder>` around hook output in the request; older versions wrote
 *   `<user-prompt-submit-hook>` / `<session-start-hook>` inline; newer ones keep it in
 *   `attachment` lines, which the transcript reader drops whole.
 * - Codex: hook context is a `developer` message (HookAdditionalContext), which the transcript
 *   reader drops whole; the tags are stripped from its user text too, in case a version moves it.
 * The hyphenated spellings are kept for harnesses that copy Gemini's idea with another name.
 */
export const HOOK_INJECTION_TAGS: readonly string[] = [
  'hook_context',
  'hook-context',
  'system-reminder',
  'user-prompt-submit-hook',
  'session-start-hook',
  'additional_context',
  'additional-context',
];

/**
 * Claude Code's plain rendering of hook output ("SessionStart:startup hook success: …",
 * "UserPromptSubmit hook success: …"): a text part that begins so is hook output to its end.
 */
const HOOK_SUCCESS_LINE = /^\s*(?:SessionStart(?::\w+)?|UserPromptSubmit|SubagentStart|BeforeAgent) hook (?:success|additional context):/;

/**
 * The user's own words in `text`: every hook-injected block removed, trimmed; '' when the text was
 * all injection. Pure and cheap (one regular expression pass): the hook client runs it per prompt.
 */
export function stripInjectedText(text: string): string {
  if (HOOK_SUCCESS_LINE.test(text)) return '';
  return stripTaggedBlocks(text, HOOK_INJECTION_TAGS);
}
