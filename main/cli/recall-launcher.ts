import path from 'node:path';
import { codeCacheDirFromEnv } from '../core/platform/config/paths.js';
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

type RecallFast = typeof import('./recall-fast.js');

/**
 * The exit code when the fast path answered; 'full' when the full CLI must run the command, and
 * when the fast path cannot be loaded (the full CLI then says what is wrong, if anything is).
 * Shipped bundle only, where recall-fast.js sits beside this file.
 */
export async function launchRecall(args: readonly string[]): Promise<number | 'full'> {
  let loaded: ReturnType<typeof requireWithCodeCache<RecallFast>>;
  try {
    loaded = requireWithCodeCache<RecallFast>(
      path.join(__dirname, 'recall-fast.js'),
      codeCacheDirFromEnv(process.env),
      FAST_SHA256,
      require,
    );
  } catch {
    return 'full';
  }
  traceMark(loaded.fromCache ? 'fast-cached' : 'fast-compiled');
  const code = await loaded.exports.recallFast(args);
  // After the answer: the first recall of a build writes the cache, the next ones read it.
  loaded.save();
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
