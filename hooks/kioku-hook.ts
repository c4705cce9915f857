import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ANSWERED_EVENTS, ASSISTANTS, HOOK_EVENTS, type AssistantName, type HookEventName } from '../common/hook-events.js';
import { surelyNotACall } from '../main/core/integrations/assistants/silent-prompt.js';
import { loadConfig, type KiokuConfig } from '../main/core/platform/config/config.js';
import { createLogger, type Logger } from '../main/core/platform/config/log.js';
import { traceFlush, traceMark, traceSpan } from '../main/core/platform/config/trace.js';
import { notCodeCached, requireWithCodeCache, siblingBundle, type CodeCachedModule } from '../main/core/platform/fs/code-cached-require.js';
import { readHookStdin, startHookStdin, type StdinStart } from './hook-stdin.js';
import { askDaemon, newHookCall, sendEarlyRequest, type EarlyRequest } from './early-request.js';
import { readStoredSettings } from '../main/core/platform/config/stored-settings.js';
import { fdOutputPending, writeToFd } from '../main/core/platform/fs/fd-output.js';

/**
 * The hook client (HOOK-1…5): `kioku-hook <event>`, stdin = the assistant's hook JSON, stdout =
 * exactly its answer. It never blocks the assistant: always exit 0, problems to stderr (HOOK-2).
 * Design notes: docs/design-notes.md, "hooks/kioku-hook.ts".
 */
interface HookArgs {
  event: HookEventName;
  assistant: AssistantName;
  part?: number;
  parts?: number;
}

function parseArgs(args: readonly string[]): HookArgs | string {
  const [event, ...rest] = args;
  if (!event || !(HOOK_EVENTS as readonly string[]).includes(event))
    return `unknown hook event "${event ?? ''}" (expected one of ${HOOK_EVENTS.join(', ')})`;
  const parsed: HookArgs = { event: event as HookEventName, assistant: 'claude' };
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value = ''] = [rest[i], rest[i + 1]];
    if (flag === '--assistant' && (ASSISTANTS as readonly string[]).includes(value)) parsed.assistant = value as AssistantName;
    else if (flag === '--part' && /^\d+$/.test(value)) parsed.part = Number(value);
    else if (flag === '--parts' && /^\d+$/.test(value)) parsed.parts = Number(value);
    else return `unknown argument "${flag} ${value}"`;
  }
  return parsed;
}

/**
 * Set when the answer came from the daemon or from this process alone, never from the fallback:
 * then nothing this process started outlives the answer (the fallback's handlers may leave work
 * for the event loop, and stay with Node's own exit).
 */
let answeredWithoutFallback = false;

/**
 * How this run went — its event and who answered (a prompt that calls nobody, the daemon, the
 * files) — for the launcher's code cache, which is written again for a route it was not made on
 * (code-cached-require.ts): each route runs other functions of this client.
 */
let route = 'unparsed';
export const hookRoute = (): string => route;

/**
 * Whether the process may end the moment runHook returns (the launcher then calls process.exit):
 * answered without the fallback, the log and trace written (synchronously), and every byte of the
 * answer written to its descriptor rather than handed to a stream still writing it. Ending there
 * skips tearing down Node's environment: about 0.4 ms of a hook the daemon answered, whose closing
 * pipe handle costs Node's own exit one more turn of the loop (design notes, "hooks/hook-launcher.ts").
 */
export function settledAfterAnswer(): boolean {
  return answeredWithoutFallback && !fdOutputPending();
}

/**
 * The early request (early-request.ts), when it was made for this event and sent where this
 * config says: it resolves the homes the way the settings do, so they always agree — and should
 * they not, the reply of another home's daemon is not this session's answer.
 */
function earlyFor(args: HookArgs, config: KiokuConfig, logger: Logger, early: EarlyRequest | undefined): EarlyRequest | undefined {
  if (!early) return undefined;
  if (early.endpoint.socketPath === config.paths.socketPath && early.endpoint.tokenFile === config.paths.tokenFile) return early;
  logger.warn(
    'hook',
    `${args.event}: asked ${early.endpoint.socketPath} early, but the settings name ${config.paths.socketPath}; asking again`,
  );
  return undefined;
}

async function run(args: HookArgs, config: KiokuConfig, logger: Logger, stdin: Promise<string>, given?: EarlyRequest): Promise<string> {
  const text = await stdin;
  traceMark('stdin');
  const early = earlyFor(args, config, logger, given);
  let payload: unknown = early?.call.payload;
  if (!early) {
    try {
      payload = text.trim() ? JSON.parse(text) : {};
    } catch {
      logger.warn('hook', `${args.event}: stdin is not JSON (${text.length} bytes); nothing done`);
      return '';
    }
  }
  // CALL-4: a prompt that names nobody is answered here, without a round trip to the app.
  if (args.event === 'user-prompt-submit' && surelyNotACall(config, payload)) {
    route = `${args.event}/silent`;
    answeredWithoutFallback = true;
    return '';
  }
  const call = early?.call ?? newHookCall(args, payload, config.env);
  traceMark('asking');
  const reply = await (early?.reply ?? askDaemon(call, { socketPath: config.paths.socketPath, tokenFile: config.paths.tokenFile }));
  traceMark('reply');
  if (reply.ok && reply.reply.handledMs !== undefined) traceSpan('daemon', reply.reply.handledMs);
  // A parts>1 SessionStart is asked of the files directly: the daemon answers one part per call.
  if (reply.ok && reply.reply.ok && !(args.parts && args.parts > 1)) {
    route = `${args.event}/daemon`;
    answeredWithoutFallback = true;
    return reply.reply.stdout;
  }
  // Someone else's socket is worth a warning with its reason: the user should know, and fix it.
  if (!reply.ok && reply.reason === 'untrusted') logger.warn('hook', `${args.event}: ${reply.detail}; answering from the files`);
  else if (!reply.ok && reply.reason !== 'no-socket')
    logger.info('hook', `${args.event}: daemon did not answer (${reply.reason}); answering from the files`);
  route = `${args.event}/files`;
  const loaded = await loadFallback(config);
  traceMark(loaded.fromCache ? 'fallback-loaded' : 'fallback-compiled');
  const fallback = loaded.exports;
  let answer = '';
  if (ANSWERED_EVENTS.has(args.event))
    answer = fallback.answerFromFiles(config, logger, call, {
      ...(args.part ? { part: args.part } : {}),
      ...(args.parts ? { parts: args.parts } : {}),
    });
  else fallback.spoolForLater(config, logger, call);
  loaded.save(args.event);
  return answer;
}

/**
 * The fallback bundle, loaded only when the daemon did not answer. The shipped client is CommonJS
 * (scripts/build-hooks.mjs), where it is `require`d — with V8's code cache from the state folder
 * (code-cached-require.ts): `import()` of a CommonJS file goes through the ESM loader, which first
 * lexes all of it for its exports (a tenth of `node -e 0` and more on every fallback, in the hooks
 * bench profile), and compiling it is half of the rest. Run from source (ESM, tests), it is imported.
 */
declare const __KIOKU_FALLBACK_SHA256__: string | undefined;
/** The fallback bundle's hash, baked in by scripts/build-hooks.mjs; undefined when run from source. */
const FALLBACK_SHA256 = typeof __KIOKU_FALLBACK_SHA256__ === 'string' ? __KIOKU_FALLBACK_SHA256__ : undefined;

async function loadFallback(config: KiokuConfig): Promise<CodeCachedModule<typeof import('./hook-fallback.js')>> {
  // esbuild's ESM bundles (the tests' children) have a `require` shim, and no __dirname.
  const file = typeof require === 'function' ? siblingBundle('hook-fallback.js') : undefined;
  if (file) return requireWithCodeCache(file, path.join(config.paths.stateDir, 'cache'), FALLBACK_SHA256, require);
  return notCodeCached(await import('./hook-fallback.js'));
}

/** The answer and problems, straight to the descriptors (fd-output.ts: no node:net for a pipe). */
const say = writeToFd;

export interface RunHookOptions {
  /** What the launcher already read of stdin (hook-stdin.ts); the rest, if any, is read here. */
  stdin?: StdinStart;
}

export async function runHook(argv: readonly string[], options: RunHookOptions = {}): Promise<number> {
  if (process.env.KIOKU_HOOK_DISABLED === '1') return 0; // inside our own condenser CLI runs
  traceMark('loaded');
  const started = Date.now();
  let logger: Logger = { log() {}, info() {}, warn() {}, error() {} };
  try {
    const args = parseArgs(argv);
    if (typeof args === 'string') {
      say(2, `kioku hook: ${args}\n`);
      return 0;
    }
    // Stdin first (nearly always one read); a rest that is still coming arrives while the settings are worked out.
    const start = options.stdin ?? startHookStdin(0);
    const stdin = readHookStdin(0, start);
    // The daemon asked before the settings are resolved, when the environment alone says where
    // (early-request.ts): it works while they are.
    const stored = readStoredSettings(process.env);
    const early = 'text' in start ? sendEarlyRequest(argv, start.text, process.env, stored) : undefined;
    // The connection is made, and the request written, on the loop's next turn: that first.
    if (early) await early.sent;
    const config = loadConfig(process.env, { storedRead: stored });
    logger = createLogger({ clock: config.clock, file: `${config.paths.logsDir}/hooks.log`, errlog: config.settings.ROLE_ERRLOG });
    traceMark('config');
    const stdout = await run(args, config, logger, stdin, early);
    if (stdout) say(1, stdout);
    traceMark('answered');
    logger.info('hook', `${args.assistant} ${args.event}: ${stdout.length} chars in ${Date.now() - started} ms`);
    traceMark('logged');
    traceFlush(`hook ${args.event}`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.error('hook', message);
    say(2, `kioku hook: ${message} (the assistant was not blocked)\n`);
  }
  return 0;
}

/**
 * Run as a program, not imported (tests import runHook). In the shipped CommonJS bundle Node
 * answers that itself; comparing file URLs would build two of them, about half a millisecond
 * of every hook (X-PERF). From source (ESM) there is no `module`, and the URLs are compared.
 */
function runAsProgram(): boolean {
  if (typeof module === 'object' && typeof require === 'function' && require.main !== undefined) return require.main === module;
  return Boolean(process.argv[1]) && import.meta.url === pathToFileURL(process.argv[1]!).href;
}

if (runAsProgram()) {
  // runHook never rejects (it catches everything and answers 0), so nothing is left unhandled.
  void runHook(process.argv.slice(2)).then((code) => {
    if (settledAfterAnswer()) process.exit(code);
    process.exitCode = code;
  });
}
