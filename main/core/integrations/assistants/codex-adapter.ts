import { plainTextAdapter } from './plain-text-adapter.js';

/**
 * Codex CLI (ASSISTANTS.md). Stdin is Claude-like (`transcript_path` may be null; PostCompact has
 * no summary). Stdout that looks like JSON and is not valid hook JSON makes the hook fail, so
 * text starting with `{` or `[` goes out in the JSON form. Codex has no SessionEnd: its locks are
 * released by the idle timeout (LOCK-2).
 */
export const codexAdapter = plainTextAdapter({
  name: 'codex',
  events: {
    'session-start': 'SessionStart',
    'user-prompt-submit': 'UserPromptSubmit',
    stop: 'Stop',
    'pre-compact': 'PreCompact',
    'post-compact': 'PostCompact',
    'subagent-start': 'SubagentStart',
  },
  jsonStarts: '{[',
});
