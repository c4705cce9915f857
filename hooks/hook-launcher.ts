import fs from 'node:fs';
import path from 'node:path';
import { codeCacheDirFromEnv } from '../main/core/platform/config/paths.js';
import { traceFlush, traceMark } from '../main/core/platform/config/trace.js';
import { requireWithCodeCache } from '../main/core/platform/fs/code-cached-require.js';
import { startHookStdin, type StdinStart } from './hook-stdin.js';
import { silentBeforeClient } from './launcher-silent-prompt.js';

/**
 * What the assistants run (`dist/hooks/kioku-hook.js`): it loads the hook client
 * (`dist/hooks/hook-client.js`, built from kioku-hook.ts) with V8's code cache, then runs it.
 * Design notes: docs/design-notes.md, "hooks/hook-launcher.ts".
 *
 * Why a launcher: every hook of every turn compiles the client before it can answer, and the
 * functions a hook runs are compiled again, lazily, the first time each is called. A code cache
 * made after a whole run holds them all: about 2 ms of every hook (measured in the design notes).
 * The cache lives with the fallback bundle's
 * (`<memory home>/.kioku/cache`, checked to be this user's alone: cached code is code).
 */
declare const __KIOKU_CLIENT_SHA256__: string | undefined;
/** The client bundle's hash, baked in by scripts/build-hooks.mjs (the cache's name; no hashing at start). */
const CLIENT_SHA256 = typeof __KIOKU_CLIENT_SHA256__ === 'string' ? __KIOKU_CLIENT_SHA256__ : undefined;

type HookClient = typeof import('./kioku-hook.js');

/** A hook's exit code, and whether nothing it started is still running (the process may end at once). */
export interface LaunchedHook {
  code: number;
  settled: boolean;
}

/** Never throws and never exits non-zero: a hook must not block the assistant (HOOK-2). */
export async function launchHook(argv: readonly string[], clientFile: string, siblingRequire?: NodeJS.Require): Promise<number> {
  return (await launchHookSettled(argv, clientFile, siblingRequire)).code;
}

/** launchHook, also saying whether the client left anything running (kioku-hook.ts `settledAfterAnswer`). */
export async function launchHookSettled(
  argv: readonly string[],
  clientFile: string,
  siblingRequire?: NodeJS.Require,
): Promise<LaunchedHook> {
  if (process.env.KIOKU_HOOK_DISABLED === '1') return { code: 0, settled: true }; // inside our own condenser CLI runs: load nothing
  // A prompt that calls nobody is answered before the client is loaded (launcher-silent-prompt.ts);
  // whatever was read of stdin goes to the client otherwise.
  let stdin: StdinStart | undefined;
  if (argv[0] === 'user-prompt-submit') {
    stdin = startHookStdin();
    traceMark('stdin');
    if ('text' in stdin && silentBeforeClient(argv, stdin.text, process.env)) {
      traceMark('answered');
      traceFlush('hook user-prompt-submit');
      return { code: 0, settled: true };
    }
  }
  let loaded: ReturnType<typeof requireWithCodeCache<HookClient>>;
  try {
    loaded = requireWithCodeCache<HookClient>(clientFile, codeCacheDirFromEnv(process.env), CLIENT_SHA256, siblingRequire);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    tell(`kioku hook: could not load the hook client ${clientFile}: ${message}; reinstall Kioku (the assistant was not blocked)\n`);
    return { code: 0, settled: true };
  }
  traceMark(loaded.fromCache ? 'client-cached' : 'client-compiled');
  const code = await loaded.exports.runHook(argv, stdin ? { stdin } : {});
  // After the answer: the first hook of a build on each route writes the cache, the next ones read it.
  loaded.save(typeof loaded.exports.hookRoute === 'function' ? loaded.exports.hookRoute() : undefined);
  // A client of another build may not say (the two are built together, but a test's may not).
  return { code, settled: typeof loaded.exports.settledAfterAnswer === 'function' && loaded.exports.settledAfterAnswer() };
}

function tell(text: string): void {
  try {
    fs.writeSync(2, text);
  } catch {
    /* nobody is reading */
  }
}

/**
 * `kioku hook <event>` (bin/kioku.js requires this bundle): the same as running it. Shipped bundle
 * only, where the client sits beside the launcher and is given the launcher's own require.
 */
export function runHook(argv: readonly string[]): Promise<number> {
  return launchHook(argv, shippedClient(), require);
}

/** The client bundle beside this launcher (shipped bundle only). */
const shippedClient = () => path.join(__dirname, 'hook-client.js');

// Only the shipped CommonJS bundle runs this file; from source, kioku-hook.ts runs as it is.
if (typeof require === 'function' && typeof module === 'object' && require.main === module) {
  void launchHookSettled(process.argv.slice(2), shippedClient(), require).then(({ code, settled }) => {
    // Answered with nothing left running: end now rather than tear down Node's environment.
    if (settled) process.exit(code);
    process.exitCode = code;
  });
}
