import { stripTaggedBlocks } from './transcripts/transcript-text.js';

/**
 * Text a hook (Kioku's own, or any other) put into the conversation, as each assistant wraps it
 * when it lands in a user message or a prompt field (CTX-6, issue 13).
 * Design notes: docs/design-notes.md, "main/core/integrations/assistants/injected-text.ts".
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
  // The pattern needs " hook ": most prompts are spared compiling it (a hook's start, X-PERF).
  if (text.includes(' hook ') && HOOK_SUCCESS_LINE.test(text)) return '';
  return stripTaggedBlocks(text, HOOK_INJECTION_TAGS);
}
