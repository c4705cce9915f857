import { grantNote } from '../../core/store/memory/grant-scope.js';
import { otherProjectLabel } from '../../core/store/projects/project-label.js';
import type { RecallResult, RecalledMemory } from '../../core/store/index/recall.js';
import type { CliContext } from '../cli-context.js';

/** What `kioku memory recall` prints, the same whether the daemon or the CLI itself recalled. */

/** CLI.md's `memory recall` shape first; the other fields are extras. */
function recallJson(memory: RecalledMemory) {
  const { id, summary, category, memory_type, priority, path, score, tags, hits, strength, last_replayed, grant, project } = memory;
  return {
    id,
    summary,
    category,
    memory_type,
    priority,
    path,
    score,
    tags,
    hits,
    strength,
    last_replayed,
    ...(grant ? { grant } : {}),
    ...(project ? { project } : {}),
  };
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
    .map(
      (m, i) =>
        `${String(i + 1).padStart(2)}. ${m.summary}\n    ${m.category}/${m.memory_type}  priority ${m.priority}  ${m.path}${grantLine(m)}${projectLine(m)}`,
    )
    .join('\n');
}

export function reportRecallProblems(ctx: CliContext, problems: RecallResult['problems']): void {
  for (const problem of problems) ctx.note(`kioku: warning: skipped ${problem.path}: ${problem.message}`);
}

export function printRecall(ctx: CliContext, result: RecallResult, options: { role: string; query: string; json?: boolean }): void {
  reportRecallProblems(ctx, result.problems);
  if (result.writeBack === 'skipped-locked')
    ctx.note(`kioku: note: ${options.role}'s memories are being consolidated; this recall was not counted`);
  if (options.json) ctx.printJson(result.memories.map(recallJson));
  else ctx.print(result.memories.length ? recallText(result.memories) : `No memories of ${options.role} match "${options.query}".`);
}
