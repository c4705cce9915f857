import { ASSISTANTS, HOOK_EVENTS, type AssistantName, type HookEventName } from '../common/hook-events.js';
import type { HookCall, HookReply } from '../common/hook-protocol.js';
import { clockFromEnv, isoString } from '../main/core/platform/config/clock.js';
import type { StoredSettingsRead } from '../main/core/platform/config/stored-settings.js';
import { hookRequestEnv, newEventId, requestHookFast } from '../main/core/platform/ipc/hook-request.js';
import type { SocketResult } from '../main/core/platform/ipc/socket-request.js';
import { DAEMON_WAIT_MS } from './hook-budgets.js';
import { homesFromEnv } from './env-homes.js';

/**
 * The daemon's request, sent by the hook client before it resolves its settings (issue 17): the
 * request needs only the socket, the token and the environment, and resolving every setting and
 * opening the log took 0.6–0.8 ms of every hook the daemon answers, before it could ask. Sent
 * first, that work overlaps the daemon's (design notes, "hooks/early-request.ts").
 *
 * The request is the one the client would send afterwards — the same fields, to the same socket
 * (kioku-hook.ts checks the endpoint against its config) — and the client goes on with it as
 * with its own: it reads the reply, or falls back to the files, or spools this very call.
 */
export interface EarlyRequest {
  call: HookCall & { at: string };
  endpoint: { socketPath: string; tokenFile: string };
  reply: Promise<SocketResult<HookReply>>;
  /** Settled once the request is on the socket (or ended without it): the next turn of the loop. */
  sent: Promise<void>;
}

/**
 * The request for `argv` and this stdin, sent; undefined when the client asks as before, after its
 * settings: a prompt (the settings decide whether it is a call at all), arguments the client would
 * refuse or a SessionStart of several parts (answered from the files), stdin that is not JSON, a
 * settings file that moves a home, any failure here.
 */
export function sendEarlyRequest(
  argv: readonly string[],
  stdinText: string,
  env: NodeJS.ProcessEnv,
  stored: StoredSettingsRead,
): EarlyRequest | undefined {
  const args = plainArgs(argv);
  if (!args) return undefined;
  try {
    const homes = homesFromEnv(env, stored);
    if (!homes) return undefined;
    const payload: unknown = stdinText.trim() ? JSON.parse(stdinText) : {};
    const call = newHookCall(args, payload, env);
    const endpoint = { socketPath: homes.socketPath, tokenFile: homes.tokenFile };
    let sentNow = () => {};
    const sent = new Promise<void>((resolve) => (sentNow = resolve));
    return { call, endpoint, reply: askDaemon(call, endpoint, () => sentNow()), sent };
  } catch {
    return undefined;
  }
}

/** One event as the client sends it, dated now (the environment's clock, KIOKU_NOW included). */
export function newHookCall(
  args: { event: HookEventName; assistant: AssistantName },
  payload: unknown,
  env: NodeJS.ProcessEnv,
): HookCall & { at: string } {
  return {
    eventId: newEventId(),
    assistant: args.assistant,
    event: args.event,
    payload,
    env: hookRequestEnv(env),
    at: isoString(clockFromEnv(env).now()),
  };
}

/** The call asked of the daemon at `endpoint`, within the event's wait (hook-budgets.ts); `onSent`: see sendLine. */
export function askDaemon(
  call: HookCall & { at: string },
  endpoint: { socketPath: string; tokenFile: string },
  onSent?: () => void,
): Promise<SocketResult<HookReply>> {
  const { eventId, assistant, event, payload, env, at } = call;
  return requestHookFast(endpoint, { id: eventId, assistant, event, payload, env, at }, DAEMON_WAIT_MS[event], onSent);
}

/** `<event> [--assistant <name>]` for every event but a prompt; undefined for anything else. */
function plainArgs(argv: readonly string[]): { event: HookEventName; assistant: AssistantName } | undefined {
  const [event, flag, value] = argv;
  if (!event || event === 'user-prompt-submit' || !(HOOK_EVENTS as readonly string[]).includes(event)) return undefined;
  if (argv.length === 1) return { event: event as HookEventName, assistant: 'claude' };
  if (argv.length === 3 && flag === '--assistant' && (ASSISTANTS as readonly string[]).includes(value!))
    return { event: event as HookEventName, assistant: value as AssistantName };
  return undefined;
}
