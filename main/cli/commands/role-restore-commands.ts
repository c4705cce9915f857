import type { Command } from 'commander';
import { listArchivedRoles, restoreArchivedRole } from '../../core/store/roles/role-archived.js';
import type { CliContext } from '../cli-context.js';

/** `kioku role archived` and `kioku role restore <ID>`: the way back from `role delete`. */
export function registerRoleRestoreCommands(parent: Command, getContext: () => CliContext): void {
  parent
    .command('archived')
    .description('list archived roles (what `role delete` moved to .archive/), newest first')
    .option('--json', 'print one JSON array')
    .action((options: { json?: boolean }) => {
      const ctx = getContext();
      const archived = listArchivedRoles(ctx.config);
      if (options.json) return ctx.printJson(archived);
      if (archived.length === 0) return ctx.print('No archived roles.');
      const lines = archived.map((entry) => {
        const label = `${entry.id}  ${entry.emoji ? `${entry.emoji} ` : ''}${entry.name}`;
        const notes = [entry.idInUse ? `a role ${entry.id} exists now` : '', entry.problem ? `unreadable: ${entry.problem}` : '']
          .filter(Boolean)
          .join('; ');
        return `${label}  archived ${entry.archivedAt.replace('T', ' ')}  ${entry.folder}${notes ? `  (${notes})` : ''}`;
      });
      ctx.print(lines.join('\n'));
    });

  parent
    .command('restore')
    .description('move an archived role back (its files, assets and memory folder); refused when a role with that ID exists')
    .argument('<ID>', 'role ID (its newest archive) or an archive folder name as `role archived` lists it')
    .option('--json', 'print one JSON object')
    .action((reference: string, options: { json?: boolean }) => {
      const ctx = getContext();
      const restored = restoreArchivedRole(ctx.config, reference);
      if (options.json) return ctx.printJson(restored);
      ctx.print(
        [`Restored role ${restored.id} (${restored.name}):`, ...restored.moved.map((step) => `  ${step.from}\n    → ${step.to}`)].join(
          '\n',
        ),
      );
    });
}
