import { stripInjectedText } from './injected-text.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { freshCachedNames } from '../../engine/role-call/call-name-cache.js';
import { couldBeCall, matchRoleCall } from '../../engine/role-call/match-role-call.js';

/**
 * CALL-4, the silent path: most prompts name nobody, and for those the answer is nothing at all.
 * The hook client asks this before it opens a connection to the app: true only when decideCall
 * (decide-call.ts) would certainly answer "none" — calling is off, or the prompt starts with no
 * name of any role, judged against the name cache written from the role files as they are now.
 * Anything less certain (no cache, a stale one, a name that matches, a payload it cannot read)
 * is false, and the app decides as before. Reads two small things, writes nothing.
 */
export function surelyNotACall(config: Pick<KiokuConfig, 'settings' | 'paths'>, payload: unknown): boolean {
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
