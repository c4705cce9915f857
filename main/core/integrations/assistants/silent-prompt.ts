import { stripInjectedText } from './injected-text.js';
import type { KiokuPaths } from '../../platform/config/paths.js';
import type { Settings } from '../../platform/config/settings-schema.js';
import { freshCachedNames } from '../../engine/role-call/call-name-cache.js';
import { couldBeCall, matchRoleCall } from '../../engine/role-call/match-role-call.js';

/**
 * CALL-4, the silent path: most prompts name nobody, and for those the answer is nothing at all.
 * Design notes: docs/design-notes.md, "main/core/integrations/assistants/silent-prompt.ts".
 */
/** What surelyNotACall reads of a config (the hook launcher passes no more, hooks/launcher-silent-prompt.ts). */
export interface SilentPromptConfig {
  settings: Pick<Settings, 'ROLE_ENABLED' | 'ROLE_CALL_ENABLED' | 'ROLE_CALL_MARKER_ONLY'>;
  paths: Pick<KiokuPaths, 'stateDir' | 'roleHome'>;
}

export function surelyNotACall(config: SilentPromptConfig, payload: unknown): boolean {
  const { settings } = config;
  if (!settings.ROLE_CALL_ENABLED || settings.ROLE_ENABLED === false) return true;
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return false;
  // As the adapters read it (parse-event.ts): a blank prompt is no prompt, and what a hook injected
  // is not the prompt — Gemini's first prompt starts with SessionStart's `<hook_context>` block.
  const raw = (payload as { prompt?: unknown }).prompt;
  const prompt = typeof raw === 'string' ? stripInjectedText(raw) : '';
  if (prompt === '') return true;
  const markerOnly = settings.ROLE_CALL_MARKER_ONLY;
  if (!couldBeCall(prompt, { markerOnly })) return true;
  const roles = freshCachedNames(config);
  return roles !== undefined && matchRoleCall(prompt, roles, { markerOnly }) === undefined;
}
