import type { KiokuConfig } from '../core/platform/config/config.js';
import { traceFlush, traceMark } from '../core/platform/config/trace.js';
import { contextWithConfig, fdIo } from './cli-context.js';
import { recallDirectly, type DirectRecall } from './commands/recall-direct.js';
import { recallFastVia, type DirectOptions } from './recall-fast-core.js';
export { recallRouteTaken } from './recall-fast-core.js';

/**
 * `kioku memory recall` from the index when no daemon runs, for the fast path (recall-fast.ts):
 * bundled apart (scripts/build-hooks.mjs) and loaded only then, so the daemon's answer never pays
 * for SQLite, and this one never pays for the command parser and the command table (issue 17,
 * deliver 2: about 100 ms at 100,000 memories). The recall itself is the full command's
 * (recall-direct.ts). 'full' when it failed before printing anything: the full CLI runs the
 * command again and reports the error as every command does.
 */
export async function recallDirectFast(config: KiokuConfig, options: DirectRecall): Promise<number | 'full'> {
  traceMark('direct-loaded');
  let printed = false;
  const ctx = contextWithConfig(config, fdIo);
  // Not a spread of ctx: that would read ctx.interactive, which makes process.stdin (cli-context.ts).
  const told: typeof ctx = Object.create(ctx, {
    print: { value: (text: string) => ((printed = true), ctx.print(text)) },
    printJson: { value: (value: unknown) => ((printed = true), ctx.printJson(value)) },
  }) as typeof ctx;
  try {
    await recallDirectly(told, options);
  } catch (error) {
    if (!printed) return 'full';
    throw error;
  }
  traceFlush('memory recall');
  return 0;
}

/**
 * The whole fast path without asking a daemon, for the launcher that found no daemon's socket
 * (recall-launcher.ts): this bundle alone then, not the daemon's fast path first and this one
 * after it — one bundle read, checked and deserialized instead of two (issue 17).
 */
export function recallWithoutDaemon(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number | 'full'> {
  return recallFastVia(args, env, { direct: recallHere });
}

function recallHere(config: KiokuConfig, options: DirectOptions): Promise<number | 'full'> {
  const { project, ...rest } = options;
  return recallDirectFast(config, { ...rest, ...(project ? { project } : {}) });
}
