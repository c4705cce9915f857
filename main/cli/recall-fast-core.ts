import { loadConfig, type KiokuConfig } from '../core/platform/config/config.js';
import { traceMark } from '../core/platform/config/trace.js';
import { sessionProject } from '../core/engine/context/session-project.js';
import { parseLimit } from './commands/recall-limit.js';
import { resolveMemoryRole } from './commands/memory-role.js';
import { recallRoute } from './recall-route.js';

/**
 * What both fast paths of `kioku memory recall` share (issue 17): the plain command line they
 * answer, and the steps from it to an answer — ask the daemon when there may be one, else recall
 * from the index (`direct`). recall-fast.ts asks; recall-direct-fast.ts, loaded straight away by
 * the launcher when no daemon's socket is there, does not.
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

export interface DirectOptions {
  role: string;
  query: string;
  limit: number;
  json: boolean;
  project: string | undefined;
}

export interface RecallRoute {
  /**
   * Ask the daemon (recall-fast.ts): the exit code once it answered and the answer is printed,
   * 'full' when the full CLI must run the command, 'direct' when nobody listens. Absent: no
   * daemon's socket was there a moment ago (the launcher looked), so none is asked.
   */
  daemon?: (config: KiokuConfig, options: DirectOptions) => Promise<number | 'full' | 'direct'>;
  /** The recall from the index; 'full' when it could not answer before printing anything. */
  direct: (config: KiokuConfig, options: DirectOptions) => Promise<number | 'full'>;
}

/** The route this process's recall took, once its command line is read (recall-route.ts), for its bundle's code cache. */
let routeTaken: string | undefined;
export const recallRouteTaken = (): string | undefined => routeTaken;

/** The exit code when the daemon or the index answered; 'full' when the full CLI must run the command. */
export async function recallFastVia(args: readonly string[], env: NodeJS.ProcessEnv, route: RecallRoute): Promise<number | 'full'> {
  traceMark('fast-loaded');
  const options = parseFastArgs(args);
  if (!options || env.KIOKU_RECALL_DIRECT === '1') return 'full';
  routeTaken = recallRoute(options.query, options.json);
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
  const recall = { role, query: options.query, limit, json: options.json, project };
  const asked = route.daemon ? await route.daemon(config, recall) : 'direct';
  // No daemon: the index here, without the command parser, from a bundle of its own.
  return asked === 'direct' ? route.direct(config, recall) : asked;
}
