import path from 'node:path';
import { loadConfig, type KiokuConfig } from '../core/platform/config/config.js';
import { notCodeCached, requireWithCodeCache, siblingBundle, type CodeCachedModule } from '../core/platform/fs/code-cached-require.js';
import { traceFlush, traceMark } from '../core/platform/config/trace.js';
import { sessionProject } from '../core/engine/context/session-project.js';
import { contextWithConfig, fdIo } from './cli-context.js';
import { parseLimit } from './commands/recall-limit.js';
import { resolveMemoryRole } from './commands/memory-role.js';
import { printRecall } from './commands/recall-output.js';
import { askDaemon, rememberDaemonMiss } from './commands/recall-daemon.js';

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
interface FastArgs {
  query: string;
  role?: string;
  limit?: string;
  json: boolean;
}

/** `--query X`, `--query=X`, `--role`, `--limit`, `--json`, each at most once; anything else is the parser's. */
function parseFastArgs(args: readonly string[]): FastArgs | undefined {
  const values: Record<string, string> = {};
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') {
      if (json) return undefined;
      json = true;
      continue;
    }
    const match = /^--(query|role|limit)(?:=(.*))?$/s.exec(arg);
    if (!match) return undefined;
    const [, name, inline] = match as unknown as [string, string, string | undefined];
    const value = inline ?? args[++i];
    // A value that looks like an option, or a repeated option: what commander makes of it is its to say.
    if (value === undefined || (inline === undefined && value.startsWith('-')) || name in values) return undefined;
    values[name] = value;
  }
  if (values.query === undefined) return undefined;
  return {
    query: values.query,
    json,
    ...(values.role !== undefined ? { role: values.role } : {}),
    ...(values.limit !== undefined ? { limit: values.limit } : {}),
  };
}

/** The exit code when the daemon answered; 'full' when the full CLI must run the command. */
export async function recallFast(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number | 'full'> {
  traceMark('fast-loaded');
  const options = parseFastArgs(args);
  if (!options || env.KIOKU_RECALL_DIRECT === '1') return 'full';
  const config = loadConfig(env);
  if (config.problems.length) return 'full'; // the full CLI prints them, once
  let role: string;
  let limit: number;
  try {
    limit = parseLimit(options.limit);
    role = resolveMemoryRole(config, options.role);
  } catch {
    return 'full'; // its message and exit code come from the full CLI
  }
  const project = sessionProject(config.env, process.cwd());
  traceMark('role');
  const asked = await askDaemon(config, { role, query: options.query, limit, project });
  traceMark('daemon-asked');
  if (!asked.ok) {
    // No daemon: the index here, without the command parser, from a bundle of its own.
    if (asked.reason === 'no-socket') return directRecall(config, { role, query: options.query, limit, json: options.json, project });
    // Not asked again by the full CLI (a daemon that timed out would cost the wait twice).
    rememberDaemonMiss(asked.reason, asked.detail);
    return 'full';
  }
  printRecall(contextWithConfig(config, fdIo), asked.reply, { role, query: options.query, json: options.json });
  traceMark('done');
  traceFlush('memory recall');
  return 0;
}

/** recall-direct-fast.ts, loaded only now (its bundle beside this one; absent in a plain tsc build, then the full CLI recalls). */
async function directRecall(
  config: KiokuConfig,
  options: { role: string; query: string; limit: number; json: boolean; project: string | undefined },
): Promise<number | 'full'> {
  let direct: CodeCachedModule<DirectModule>;
  try {
    direct = await loadDirect(config);
  } catch {
    return 'full';
  }
  traceMark(direct.fromCache ? 'direct-cached' : 'direct-compiled');
  const { project, ...rest } = options;
  const code = await direct.exports.recallDirectFast(config, { ...rest, ...(project ? { project } : {}) });
  direct.save(); // after the answer: the first recall of a build writes the cache
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
