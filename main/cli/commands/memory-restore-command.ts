import type { Command } from 'commander';
import { restoreForgotten } from '../../core/store/memory/restore-forgotten.js';
import type { CliContext } from '../cli-context.js';
import { resolveExistingMemoryRole } from './existing-memory-role.js';

/**
 * `kioku memory restore <id> [--role ID] [--category C] [--json]`: bring a forgotten memory back
 * from archive/forgotten/ (the inverse of `memory forget`; FORGET-3 archives so this is possible).
 */
export function registerMemoryRestoreCommand(parent: Command, getContext: () => CliContext): void {
  parent
    .command('restore')
    .description('bring a forgotten memory back from archive/forgotten/<id>.md.gz into its category, byte for byte; never overwrites')
    .argument('<id>', 'the archived name, without .md.gz (as `memory forget` listed it)')
    .option('--role <ID>', 'role ID (default: ROLE_NAME, then the active role)')
    .option('--category <category>', 'where to put it when the file does not say (daily, other, …)')
    .option('--json', 'print one JSON object')
    .action((id: string, options: { role?: string; category?: string; json?: boolean }) => {
      const ctx = getContext();
      const role = resolveExistingMemoryRole(ctx.config, options.role);
      const result = restoreForgotten(ctx.config, role, id, options.category ? { category: options.category } : {});
      if (result.forgetAgain) {
        ctx.note(
          `kioku: warning: the next forget will archive it again (${result.forgetAgain}); to keep it, set its priority to 3 or more in ${result.path}`,
        );
      }
      if (options.json) ctx.printJson(result);
      else ctx.print(`${role}: restored ${result.category}/${result.id} → ${result.path}`);
    });
}
