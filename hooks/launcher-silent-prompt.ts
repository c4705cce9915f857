import { ASSISTANTS } from '../common/hook-events.js';
import { surelyNotACall, type SilentPromptConfig } from '../main/core/integrations/assistants/silent-prompt.js';
import { homesFromEnv } from './env-homes.js';

/**
 * CALL-4 before the hook client is even loaded: most prompts name nobody, and for those a hook
 * answers nothing. Loading the client (its source and code cache, deserialized) and resolving
 * every setting took such a prompt from 24.7 ms to 27.5, against 23.5 for `node -e 0` (issue 17;
 * design notes "hooks/launcher-silent-prompt.ts"). The decision is the client's own function
 * (silent-prompt.ts `surelyNotACall`), given the settings that make the fewest prompts silent —
 * calls on, by name as well as by `@` — so that this says "silent" only where the client would:
 * with calls off, or `@` required, the client is silent about more prompts, never fewer.
 *
 * True only then; anything else — another event, an argument the client would refuse, stdin
 * that is not JSON, a prompt that may be a call, a settings file that moves the role or memory
 * home, any failure here — is false, and the client does what it always did, from the same stdin.
 */
const FEWEST_SILENT: SilentPromptConfig['settings'] = { ROLE_ENABLED: null, ROLE_CALL_ENABLED: true, ROLE_CALL_MARKER_ONLY: false };

export function silentBeforeClient(argv: readonly string[], stdinText: string, env: NodeJS.ProcessEnv): boolean {
  if (!isPlainPromptEvent(argv) || stdinText.trim() === '') return false;
  try {
    const payload: unknown = JSON.parse(stdinText);
    const homes = homesFromEnv(env);
    return (
      homes !== undefined &&
      surelyNotACall({ settings: FEWEST_SILENT, paths: { stateDir: homes.stateDir, roleHome: homes.roleHome } }, payload)
    );
  } catch {
    return false;
  }
}

/** `user-prompt-submit [--assistant <name>]`, the only form of the event the client accepts. */
function isPlainPromptEvent(argv: readonly string[]): boolean {
  if (argv[0] !== 'user-prompt-submit') return false;
  if (argv.length === 1) return true;
  return argv.length === 3 && argv[1] === '--assistant' && (ASSISTANTS as readonly string[]).includes(argv[2]!);
}
