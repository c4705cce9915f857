import { plainTextAdapter } from './plain-text-adapter.js';

/**
 * Claude Code (ASSISTANTS.md): on exit 0, plain stdout becomes context for SessionStart and
 * UserPromptSubmit, but stdout starting with `{` is parsed as JSON.
 */
export const claudeAdapter = plainTextAdapter({
  name: 'claude',
  events: {
    'session-start': 'SessionStart',
    'user-prompt-submit': 'UserPromptSubmit',
    stop: 'Stop',
    'pre-compact': 'PreCompact',
    'post-compact': 'PostCompact',
    'session-end': 'SessionEnd',
    'subagent-start': 'SubagentStart',
  },
  jsonStarts: '{',
});
