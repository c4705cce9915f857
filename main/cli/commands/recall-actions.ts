/** What `kioku memory recall` and `memory reindex` do; loaded only when one of them runs. */
import { traceMark } from '../../core/platform/config/trace.js';
import { sessionProject } from '../../core/engine/context/session-project.js';
import type { CliContext } from '../cli-context.js';
import { resolveMemoryRole } from './memory-role.js';
import { askDaemon, takeDaemonMiss } from './recall-daemon.js';
import { parseLimit } from './recall-limit.js';
import { printRecall } from './recall-output.js';

export interface RecallCommandOptions {
  query: string;
  role?: string;
  limit?: string;
  json?: boolean;
}

/**
 * The daemon answers when it runs (its index is open and warm, and it writes the hits back after
 * answering); otherwise this process opens the index. KIOKU_RECALL_DIRECT=1 skips the daemon.
 */
export async function runRecall(ctx: CliContext, options: RecallCommandOptions): Promise<void> {
  traceMark('recall-loaded');
  const limit = parseLimit(options.limit);
  const role = resolveMemoryRole(ctx.config, options.role);
  const project = sessionProject(ctx.config.env, process.cwd());
  traceMark('role');
  // The fast path (recall-fast.ts) asked already when this runs after it.
  let missed = takeDaemonMiss();
  if (!missed && ctx.config.env.KIOKU_RECALL_DIRECT !== '1') {
    const asked = await askDaemon(ctx.config, { role, query: options.query, limit, project });
    traceMark('daemon-asked');
    if (asked.ok) return printRecall(ctx, asked.reply, { role, query: options.query, json: options.json });
    if (asked.reason !== 'no-socket') missed = asked;
  }
  if (missed) ctx.logger.info('recall', `the daemon did not answer (${missed.reason}: ${missed.detail}); recalling from the index here`);
  const { recallDirectly } = await import('./recall-direct.js');
  traceMark('direct-loaded');
  await recallDirectly(ctx, { role, query: options.query, limit, json: options.json, ...(project ? { project } : {}) });
}

export async function runReindex(ctx: CliContext, options: { role?: string }): Promise<void> {
  return (await import('./recall-direct.js')).runReindex(ctx, options);
}
