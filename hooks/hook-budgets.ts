import type { HookEventName } from '../common/hook-events.js';

/**
 * How long the hook client waits for the daemon before answering from the files itself; the
 * bounds only matter when the daemon is hung or dying.
 * Design notes: docs/design-notes.md, "hooks/hook-budgets.ts".
 */
export const DAEMON_WAIT_MS: Record<HookEventName, number> = {
  'session-start': 1200,
  'user-prompt-submit': 600,
  'subagent-start': 600,
  stop: 400,
  'pre-compact': 400,
  'post-compact': 400,
  'session-end': 250,
};

/** stdin larger than this is not a hook payload: stop reading rather than fill memory. */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;
/** An assistant that never closes stdin must not hang the hook. */
export const STDIN_TIMEOUT_MS = 2000;
