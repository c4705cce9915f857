/** What `kioku memory recall` and `memory reindex` do; loaded only when one of them runs (SQLite). */
import { KiokuError } from '../../../common/errors.js';
import type { MemoryLoadProblem } from '../../../common/memory.js';
import { openMemoryIndex, type MemoryIndex } from '../../core/store/index/memory-index.js';
import { DEFAULT_RECALL_LIMIT, recall, type RecalledMemory } from '../../core/store/index/recall.js';
import { reindexMemories } from '../../core/store/index/reindex.js';
import { createReindexProgress } from '../../core/store/index/reindex-progress.js';
import { recallQueryInStoredScript } from '../../core/store/index/recall-query-script.js';
import { otherProjectLabel } from '../../core/store/index/recall-project.js';
import { sessionProject } from '../../core/engine/context/session-project.js';
import type { CliContext } from '../cli-context.js';
import { resolveMemoryRole } from './memory-role.js';
import { grantNote } from '../../core/store/memory/grant-scope.js';

export const MAX_LIMIT = 100;
/** Files below which indexing on first use is quick enough to need no progress. */
const FIRST_INDEX_PROGRESS_MIN = 2000;

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_RECALL_LIMIT;
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) {
    throw new KiokuError('BAD_USAGE', `--limit "${value}" is not a whole number from 1 to ${MAX_LIMIT}`, { hint: 'e.g. --limit 5' });
  }
  return n;
}

function withIndex<T>(ctx: CliContext, use: (index: MemoryIndex) => T): T {
  const index = openMemoryIndex(ctx.config.paths, ctx.logger);
  try {
    return use(index);
  } finally {
    index.close();
  }
}

function reportProblems(ctx: CliContext, problems: MemoryLoadProblem[]): void {
  for (const problem of problems) ctx.note(`kioku: warning: skipped ${problem.path}: ${problem.message}`);
}

/** CLI.md's `memory recall` shape first; the other fields are extras. */
function recallJson(memory: RecalledMemory) {
  const { id, summary, category, memory_type, priority, path, score, tags, hits, strength, last_replayed, grant, project } = memory;
  return { id, summary, category, memory_type, priority, path, score, tags, hits, strength, last_replayed, ...(grant ? { grant } : {}), ...(project ? { project } : {}) };
}

/** MEM-8: a temporary grant is marked as one; a session grant is not this session's (issue 12). */
function grantLine(memory: RecalledMemory): string {
  return memory.grant ? `\n    ${grantNote(memory.grant)}` : '';
}

/** Issue 12: another project's convention says whose it is. */
function projectLine(memory: RecalledMemory): string {
  const label = otherProjectLabel(memory.project);
  return label ? `\n    ${label}` : '';
}

/** Best match first; raw bm25 scores mean little to a person, so the rank is shown instead. */
function recallText(memories: RecalledMemory[]): string {
  return memories
    .map((m, i) => `${String(i + 1).padStart(2)}. ${m.summary}\n    ${m.category}/${m.memory_type}  priority ${m.priority}  ${m.path}${grantLine(m)}${projectLine(m)}`)
    .join('\n');
}

export interface RecallCommandOptions {
  query: string;
  role?: string;
  limit?: string;
  json?: boolean;
}

export async function runRecall(ctx: CliContext, options: RecallCommandOptions): Promise<void> {
  const limit = parseLimit(options.limit);
  const role = resolveMemoryRole(ctx.config, options.role);
  const query = await recallQueryInStoredScript(options.query);
  const result = withIndex(ctx, (index) => {
    // The first recall on a new or rebuilt index reads every file: show it when it is long.
    const progress = index.fresh ? createReindexProgress(process.stderr, 'kioku: indexing memories') : undefined;
    const onIndexProgress = (done: number, total: number) => {
      if (total >= FIRST_INDEX_PROGRESS_MIN) progress?.update(done, total);
    };
    try {
      const project = sessionProject(ctx.config.env, process.cwd());
      return recall(index, { role, query, limit, clock: ctx.config.clock, onIndexProgress, ...(project ? { project } : {}) });
    } finally {
      progress?.stop();
    }
  });
  reportProblems(ctx, result.problems);
  if (result.writeBack === 'skipped-locked') ctx.note(`kioku: note: ${role}'s memories are being consolidated; this recall was not counted`);
  if (options.json) ctx.printJson(result.memories.map(recallJson));
  else ctx.print(result.memories.length ? recallText(result.memories) : `No memories of ${role} match "${options.query}".`);
}

export function runReindex(ctx: CliContext, options: { role?: string }): void {
  const progress = createReindexProgress(process.stderr);
  const report = withIndex(ctx, (index) => {
    try {
      return reindexMemories(index, options.role ? [resolveMemoryRole(ctx.config, options.role)] : 'all', progress.update);
    } finally {
      progress.stop();
    }
  });
  reportProblems(ctx, report.problems);
  const roles = report.roles.length === 1 ? `role ${report.roles[0]}` : `${report.roles.length} roles`;
  const problems = report.problems.length === 1 ? '1 problem' : `${report.problems.length} problems`;
  ctx.print(`reindex: ${roles}, ${report.indexed} memories indexed, ${problems}, ${report.seconds.toFixed(1)} s`);
}
