import path from 'node:path';
import type { KiokuConfig } from '../core/platform/config/config.js';
import { notCodeCached, requireWithCodeCache, siblingBundle, type CodeCachedModule } from '../core/platform/fs/code-cached-require.js';
import { traceFlush, traceMark } from '../core/platform/config/trace.js';
import { contextWithConfig, fdIo } from './cli-context.js';
import { askDaemon, rememberDaemonMiss } from './commands/recall-daemon.js';
import { printRecall } from './commands/recall-output.js';
import { recallFastVia, type DirectOptions } from './recall-fast-core.js';
export { recallRouteTaken } from './recall-fast-core.js';
import { recallRoute } from './recall-route.js';

/**
 * `kioku memory recall` answered by the daemon without the command parser (issue 17: the
 * assistant runs it whenever it needs the past, so its start-up is paid again and again).
 * bin/kioku.js hands it a plain `memory recall` command line; bundled on its own
 * (scripts/build-hooks.mjs), it asks the daemon and prints what the full command prints
 * (recall-output.ts, the same code). Everything else — no daemon, an option it does not know,
 * a usage error, a settings warning — is 'full': the full CLI runs the command as always, so
 * help, errors and the recall from the index keep their one implementation.
 * Design notes: docs/design-notes.md, "main/cli/recall-fast.ts".
 */

/** The exit code when the daemon answered; 'full' when the full CLI must run the command. */
export function recallFast(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number | 'full'> {
  return recallFastVia(args, env, { daemon: fromDaemon, direct: directRecall });
}

async function fromDaemon(config: KiokuConfig, options: DirectOptions): Promise<number | 'full' | 'direct'> {
  const { role, query, limit, project, json } = options;
  const asked = await askDaemon(config, { role, query, limit, project });
  traceMark('daemon-asked');
  if (!asked.ok) {
    if (asked.reason === 'no-socket') return 'direct';
    // Not asked again by the full CLI (a daemon that timed out would cost the wait twice).
    rememberDaemonMiss(asked.reason, asked.detail);
    return 'full';
  }
  printRecall(contextWithConfig(config, fdIo), asked.reply, { role, query, json });
  traceMark('done');
  traceFlush('memory recall');
  return 0;
}

/** recall-direct-fast.ts, loaded only now (its bundle beside this one; absent in a plain tsc build, then the full CLI recalls). */
async function directRecall(config: KiokuConfig, options: DirectOptions): Promise<number | 'full'> {
  let direct: CodeCachedModule<DirectModule>;
  try {
    direct = await loadDirect(config);
  } catch {
    return 'full';
  }
  traceMark(direct.fromCache ? 'direct-cached' : 'direct-compiled');
  const { project, ...rest } = options;
  const code = await direct.exports.recallDirectFast(config, { ...rest, ...(project ? { project } : {}) });
  direct.save(recallRoute(options.query, options.json)); // after the answer: the first recall of a build on this route writes the cache
  return code;
}

type DirectModule = typeof import('./recall-direct-fast.js');
declare const __KIOKU_DIRECT_SHA256__: string | undefined;
/** The direct bundle's hash, baked in by scripts/build-hooks.mjs; undefined when run from source. */
const DIRECT_SHA256 = typeof __KIOKU_DIRECT_SHA256__ === 'string' ? __KIOKU_DIRECT_SHA256__ : undefined;

/**
 * The shipped fast path is CommonJS: its sibling bundle is required (an import() of CommonJS
 * would load the ESM loader), with V8's code cache in the state folder, as the hook client loads
 * its fallback — compiling 150 KB was a good part of a recall without the daemon. Run from
 * source (ESM, the tests), it is imported.
 */
async function loadDirect(config: KiokuConfig): Promise<CodeCachedModule<DirectModule>> {
  const file = typeof require === 'function' ? siblingBundle('recall-direct-fast.js') : undefined;
  if (file) return requireWithCodeCache<DirectModule>(file, path.join(config.paths.stateDir, 'cache'), DIRECT_SHA256, require);
  return notCodeCached(await import('./recall-direct-fast.js'));
}
