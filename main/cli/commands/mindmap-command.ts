import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import { buildRoleMindmap } from '../../core/engine/mindmap/role-mindmap.js';
import { DEFAULT_MAX_CONCEPTS } from '../../core/engine/mindmap/mindmap-graph.js';
import type { CliContext } from '../cli-context.js';
import { resolveExistingMemoryRole } from './existing-memory-role.js';

/**
 * `kioku memory mindmap [--role ID] [--max N] [--json]` (PM-5): the Mermaid `mindmap` of a
 * role's consolidated concepts (tags) on stdout; `--json` gives nodes and edges for the UI.
 * Design notes: docs/design-notes.md, "main/cli/commands/mindmap-command.ts".
 */
const MAX_CONCEPTS_LIMIT = 500;

function parseMax(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_CONCEPTS;
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCEPTS_LIMIT) {
    throw new KiokuError('BAD_USAGE', `--max "${value}" is not a whole number from 1 to ${MAX_CONCEPTS_LIMIT}`, {
      hint: `e.g. --max ${DEFAULT_MAX_CONCEPTS}`,
    });
  }
  return n;
}

export function registerMindmapCommand(parent: Command, getContext: () => CliContext): void {
  parent
    .command('mindmap')
    .description(
      "a Mermaid mind map of the role's consolidated concepts (tags), grouped by category; links and shared memories become weighted edges in --json",
    )
    .option('--role <ID>', 'role ID (default: ROLE_NAME, then .active)')
    .option('--max <n>', `the heaviest concepts to show (default ${DEFAULT_MAX_CONCEPTS}); the rest are counted as "N more"`)
    .option('--json', 'print { role, mermaid, nodes, edges, omitted, memories } as one JSON object')
    .action((options: { role?: string; max?: string; json?: boolean }) => {
      const ctx = getContext();
      const maxConcepts = parseMax(options.max);
      const role = resolveExistingMemoryRole(ctx.config, options.role);
      const map = buildRoleMindmap(ctx.config, role, { maxConcepts });
      for (const problem of map.problems) ctx.note(`kioku: warning: skipped ${problem.path}: ${problem.message}`);
      if (options.json) {
        const { problems: _problems, ...data } = map;
        ctx.printJson(data);
        return;
      }
      ctx.print(map.mermaid);
      if (map.nodes.length === 0)
        ctx.note(
          `kioku: note: ${role} has no consolidated memories with tags yet; the map has only its root (tags come with \`kioku sleep\`)`,
        );
    });
}
