/** What `kioku memory recall` and `memory reindex` do; loaded only when one of them runs. */
import { KiokuError } from '../../../common/errors.js';
import { formatLocalIso } from '../../core/platform/config/clock.js';
import { traceMark } from '../../core/platform/config/trace.js';
import { DEFAULT_RECALL_LIMIT } from '../../core/store/index/recall-limits.js';
import { requestRecall } from '../../core/platform/ipc/recall-request.js';
import { sessionProject } from '../../core/engine/context/session-project.js';
import type { CliContext } from '../cli-context.js';
import { resolveMemoryRole } from './memory-role.js';
import { printRecall } from './recall-output.js';

export const MAX_LIMIT = 100;
/**
 * How long to wait for the daemon's answer before recalling here. Its first recall opens the
 * index (and on a new one reads every file), so this is generous; a daemon that is merely slow
 * and answers later writes nothing back, since its answer was not received.
 */
const DAEMON_RECALL_WAIT_MS = 10_000;

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_RECALL_LIMIT;
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) {
    throw new KiokuError('BAD_USAGE', `--limit "${value}" is not a whole number from 1 to ${MAX_LIMIT}`, { hint: 'e.g. --limit 5' });
  }
  return n;
}

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
  if (ctx.config.env.KIOKU_RECALL_DIRECT !== '1') {
    const now = ctx.config.clock.now();
    const { paths } = ctx.config;
    const asked = await requestRecall(
      paths,
      {
        memoryHome: paths.memoryHome,
        role,
        query: options.query,
        limit,
        nowMs: now.getTime(),
        replayedAt: formatLocalIso(now),
        ...(project ? { project } : {}),
      },
      DAEMON_RECALL_WAIT_MS,
    );
    traceMark('daemon-asked');
    if (asked.ok) return printRecall(ctx, asked.reply, { role, query: options.query, json: options.json });
    if (asked.reason !== 'no-socket')
      ctx.logger.info('recall', `the daemon did not answer (${asked.reason}: ${asked.detail}); recalling from the index here`);
  }
  const { recallDirectly } = await import('./recall-direct.js');
  traceMark('direct-loaded');
  await recallDirectly(ctx, { role, query: options.query, limit, json: options.json, ...(project ? { project } : {}) });
}

export async function runReindex(ctx: CliContext, options: { role?: string }): Promise<void> {
  return (await import('./recall-direct.js')).runReindex(ctx, options);
}
