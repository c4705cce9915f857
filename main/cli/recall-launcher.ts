import fs from 'node:fs';
import path from 'node:path';
import { codeCacheDirFromEnv, socketPathFromEnv } from '../core/platform/config/paths.js';
import { traceMark } from '../core/platform/config/trace.js';
import { requireWithCodeCache } from '../core/platform/fs/code-cached-require.js';
import { fdOutputPending } from '../core/platform/fs/fd-output.js';

/**
 * What bin/kioku.js runs for `kioku memory recall` (issue 17): the fast path (recall-fast.ts)
 * loaded with V8's code cache, as the hook launcher loads the hook client (hooks/hook-launcher.ts).
 * The assistant runs a recall whenever it needs the past, and each one compiled the fast path's
 * 28 KB and every function it called, lazily, before it could ask the daemon or the index.
 * The cache sits with the hooks' (`<memory home>/.kioku/cache`, private: cached code is code),
 * the memory home as the environment names it: the settings are the fast path's first job.
 */
declare const __KIOKU_RECALL_FAST_SHA256__: string | undefined;
/** The fast path's hash, baked in by scripts/build-hooks.mjs (the cache's name; nothing hashed at start). */
const FAST_SHA256 = typeof __KIOKU_RECALL_FAST_SHA256__ === 'string' ? __KIOKU_RECALL_FAST_SHA256__ : undefined;

declare const __KIOKU_DIRECT_SHA256__: string | undefined;
/** The direct recall bundle's hash, baked in likewise. */
const DIRECT_SHA256 = typeof __KIOKU_DIRECT_SHA256__ === 'string' ? __KIOKU_DIRECT_SHA256__ : undefined;

type RecallFast = typeof import('./recall-fast.js');
type RecallDirect = typeof import('./recall-direct-fast.js');

/**
 * Whether a daemon's socket may be there, from the environment alone (paths.ts names it so, the
 * settings play no part). A Windows pipe cannot be looked for this way: always maybe. When the
 * answer is no, the recall needs the index bundle only, and loading the daemon's fast path first
 * cost about 1.5 ms of every recall without the daemon (issue 17). A daemon that starts meanwhile
 * is simply not asked: the index gives the same answer (recall-daemon-parity.test.ts).
 */
function daemonSocketMayBeThere(env: NodeJS.ProcessEnv): boolean {
  return process.platform === 'win32' || fs.existsSync(socketPathFromEnv(env));
}

/**
 * The exit code when the fast path answered (or, with no daemon's socket there, the index bundle
 * alone); 'full' when the full CLI must run the command, and when the bundle cannot be loaded
 * (the full CLI then says what is wrong, if anything is). Shipped bundles only, where
 * recall-fast.js and recall-direct-fast.js sit beside this file.
 */
export function launchRecall(args: readonly string[]): Promise<number | 'full'> {
  if (!daemonSocketMayBeThere(process.env))
    return runBundle<RecallDirect>('recall-direct-fast.js', DIRECT_SHA256, 'direct', (direct) => direct.recallWithoutDaemon(args));
  return runBundle<RecallFast>('recall-fast.js', FAST_SHA256, 'fast', (fast) => fast.recallFast(args));
}

/**
 * A bundle beside this file, loaded with its code cache, run; 'full' when it cannot be loaded.
 * After the answer its cache is written when there was none, or none made on this recall's route
 * (recall-route.ts): the first recall of a build on each route writes it, the next ones read it.
 */
async function runBundle<M extends { recallRouteTaken(): string | undefined }>(
  name: string,
  hash: string | undefined,
  mark: 'fast' | 'direct',
  run: (exports: M) => Promise<number | 'full'>,
): Promise<number | 'full'> {
  let loaded: ReturnType<typeof requireWithCodeCache<M>>;
  try {
    loaded = requireWithCodeCache<M>(path.join(__dirname, name), codeCacheDirFromEnv(process.env), hash, require);
  } catch {
    return 'full';
  }
  traceMark(`${mark}-${loaded.fromCache ? 'cached' : 'compiled'}`);
  const code = await run(loaded.exports);
  loaded.save(typeof loaded.exports.recallRouteTaken === 'function' ? loaded.exports.recallRouteTaken() : undefined);
  return code;
}

/**
 * Whether the process may end the moment launchRecall has answered: every byte printed went to
 * the descriptor itself, not to a stream still writing it. The fast path leaves nothing else
 * running (the index is closed, a replay applier it starts is detached), so bin/kioku.js then
 * ends with process.exit instead of Node's teardown, as the hook launcher does (hook-launcher.ts).
 */
export function recallSettled(): boolean {
  return !fdOutputPending();
}
