import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

/**
 * `kioku memory recall` and `kioku memory reindex` (CLI.md; MEM-4, PM-6), over main/core/store/index.
 * The definitions stay here; the work (and SQLite with it) loads only when one of them runs.
 */
const actions = () => import('./recall-actions.js');

export function registerRecallCommands(parent: Command, getContext: () => CliContext): void {
  parent
    .command('recall')
    .description("find a role's memories by text (Chinese and Japanese match without spaces); each one shown counts as recalled")
    .requiredOption('--query <text>', 'what to look for')
    .option('--role <ID>', 'role ID (default: ROLE_NAME, then .active)')
    .option('--limit <n>', 'how many memories at most (default 5, at most 100)')
    .option('--json', 'print one JSON array')
    .action(async (options: { query: string; role?: string; limit?: string; json?: boolean }) =>
      (await actions()).runRecall(getContext(), options),
    );

  parent
    .command('reindex')
    .description('rebuild the search index from the memory files (all roles unless --role); the files are never changed')
    .option('--role <ID>', 'only this role')
    .action(async (options: { role?: string }) => (await actions()).runReindex(getContext(), options));
}
