/** `kioku memory recall` without the daemon, and `memory reindex`: the index opened here (SQLite). */
import type { MemoryLoadProblem } from '../../../common/memory.js';
import { traceMark } from '../../core/platform/config/trace.js';
import { openMemoryIndex, type MemoryIndex } from '../../core/store/index/memory-index.js';
import { prepareRecall, type PreparedRecall } from '../../core/store/index/recall.js';
import { reindexMemories } from '../../core/store/index/reindex.js';
import { applyReplayQueue } from '../../core/store/index/apply-replay-queue.js';
import { APPLY_AT_BYTES, queuedBytes, rolesWithQueuedReplays } from '../../core/store/index/replay-queue.js';
import { recallQueryInStoredScript } from '../../core/store/index/recall-query-script.js';
import type { ReindexProgress } from '../../core/store/index/reindex-progress.js';
import type { CliContext } from '../cli-context.js';
import { startReplayApplier } from '../replay-applier.js';
import { resolveMemoryRole } from './memory-role.js';
import { printRecall, reportRecallProblems } from './recall-output.js';

/** Files below which indexing on first use is quick enough to need no progress. */
const FIRST_INDEX_PROGRESS_MIN = 2000;

/** The progress bar library loads only for a first index or a reindex. */
async function progressOn(label?: string): Promise<ReindexProgress> {
  const { createReindexProgress } = await import('../../core/store/index/reindex-progress.js');
  return createReindexProgress(process.stderr, label);
}

export interface DirectRecall {
  role: string;
  query: string;
  limit: number;
  project?: string;
  json?: boolean;
}

/**
 * Recall, print the answer, then queue the hits (replay-queue.ts): this process's exit is what
 * the assistant waits for, so the files are written later — by a sleep, the daemon, a reindex,
 * or the applier that the recall finding the queue long starts (replay-applier.ts).
 */
export async function recallDirectly(ctx: CliContext, options: DirectRecall): Promise<void> {
  const query = await recallQueryInStoredScript(options.query);
  traceMark('query-script');
  // Read-only until something is to be written: most recalls write nothing to the index.
  const index = openMemoryIndex(ctx.config.paths, ctx.logger, { forReading: true });
  let prepared: PreparedRecall | undefined;
  try {
    traceMark('index-open');
    // The first recall on a new or rebuilt index reads every file: show it when it is long.
    const progress = index.fresh ? await progressOn('kioku: indexing memories') : undefined;
    const onIndexProgress = (done: number, total: number) => {
      if (total >= FIRST_INDEX_PROGRESS_MIN) progress?.update(done, total);
    };
    try {
      prepared = prepareRecall(index, {
        role: options.role,
        query,
        limit: options.limit,
        clock: ctx.config.clock,
        writeBack: 'queue',
        onIndexProgress,
        ...(options.project ? { project: options.project } : {}),
      });
    } finally {
      progress?.stop();
    }
    traceMark('recalled');
    printRecall(ctx, prepared.result, options);
    traceMark('printed');
    reportRecallProblems(ctx, prepared.writeBack());
    traceMark('queued');
    if (queuedBytes(ctx.config.paths.memoryHome, options.role) >= APPLY_AT_BYTES && !startReplayApplier(options.role)) {
      reportRecallProblems(ctx, applyReplayQueue(index, options.role));
      traceMark('written-back');
    }
  } finally {
    prepared?.release();
    index.close();
  }
}

function withIndex<T>(ctx: CliContext, use: (index: MemoryIndex) => T): T {
  const index = openMemoryIndex(ctx.config.paths, ctx.logger);
  try {
    return use(index);
  } finally {
    index.close();
  }
}

export async function runReindex(ctx: CliContext, options: { role?: string }): Promise<void> {
  const progress = await progressOn();
  const which = options.role ? [resolveMemoryRole(ctx.config, options.role)] : 'all';
  const report = withIndex(ctx, (index) => {
    // Queued recall hits first: a reindex brings the index up to date with everything recalled.
    for (const role of which === 'all' ? rolesWithQueuedReplays(index.memoryHome) : which)
      reportRecallProblems(ctx, applyReplayQueue(index, role));
    try {
      return reindexMemories(index, which, progress.update);
    } finally {
      progress.stop();
    }
  });
  reportRecallProblems(ctx, report.problems as MemoryLoadProblem[]);
  const roles = report.roles.length === 1 ? `role ${report.roles[0]}` : `${report.roles.length} roles`;
  const problems = report.problems.length === 1 ? '1 problem' : `${report.problems.length} problems`;
  ctx.print(`reindex: ${roles}, ${report.indexed} memories indexed, ${problems}, ${report.seconds.toFixed(1)} s`);
}
