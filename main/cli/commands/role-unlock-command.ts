import type { Command } from 'commander';
import { isValidRoleId } from '../../../common/role-id.js';
import { resolveRoleReference } from '../../core/store/roles/role-repository.js';
import { unlockRoles, type UnlockedRole } from '../../core/store/sessions/role-locks.js';
import type { CliContext } from '../cli-context.js';

/**
 * `kioku role unlock [<ID>]` (LOCK-5): clear role locks by hand — the way out
 * when a lock outlives its session before the idle timeout frees it. Kept out of
 * role-commands.ts so that file stays small; the CLI registers it beside the other role commands.
 */
function describeUnlocked(entry: UnlockedRole): string {
  const holder = entry.holder;
  if (!holder) return `Released ${entry.role} (its lock file could not be read).`;
  const session = holder.sessionKey ? ` session ${holder.sessionKey}` : '';
  return `Released ${entry.role} (held by ${holder.assistant}${session} since ${holder.since}; transcript ${holder.transcriptPath}).`;
}

export function registerRoleUnlockCommand(roleCommand: Command, getContext: () => CliContext): void {
  roleCommand
    .command('unlock')
    .description('release role locks by hand: one role, or every role when no ID is given')
    .argument('[role]', 'role ID (or display name); omit to release every lock')
    .option('--json', 'print one JSON object: { released: [...] }')
    .action((reference: string | undefined, options: { json?: boolean }) => {
      const ctx = getContext();
      const trimmed = reference?.trim();
      // A lock may outlive its role (deleted meanwhile), so a valid ID is taken as is; only a
      // name needs the role files to be resolved.
      const id =
        trimmed === undefined || trimmed === ''
          ? undefined
          : isValidRoleId(trimmed)
            ? trimmed
            : resolveRoleReference(ctx.config.paths.roleHome, trimmed);
      const released = unlockRoles(ctx.config, id);
      if (options.json) {
        ctx.printJson({ released: released.map((entry) => ({ role: entry.role, ...(entry.holder ? { holder: entry.holder } : {}) })) });
        return;
      }
      if (released.length > 0) ctx.print(released.map(describeUnlocked).join('\n'));
      else ctx.print(id ? `${id} was not locked; nothing to release.` : 'No role locks to release.');
    });
}
