import type { Command } from 'commander';
import { readActiveRoleId, writeActiveRoleId } from '../../core/store/roles/role-active.js';
import { archiveRole } from '../../core/store/roles/role-archive.js';
import { migrateLegacyRole } from '../../core/store/roles/role-migrate.js';
import { loadAllRoles, readRoleDefinition, resolveRoleReference } from '../../core/store/roles/role-repository.js';
import { listRoleSummaries } from '../../core/store/roles/role-summary.js';
import type { CliContext } from '../cli-context.js';
import { roleListJson, roleListTable, roleShowJson, roleShowText } from './role-output.js';
import { runRoleNew, type RoleNewOptions } from './role-new-command.js';
import { registerRoleRestoreCommands } from './role-restore-commands.js';
import { runRoleExport, runRoleImport } from './role-transfer-commands.js';

/** `kioku role …` (CLI.md; ROLE-8, the command list). Each action is a few lines over main/core/store/roles. */
export function registerRoleCommands(parent: Command, getContext: () => CliContext): void {
  parent
    .command('list')
    .description('list every role: ID, name, emoji, nature, updated, active, memory folder and count')
    .option('--json', 'print one JSON array')
    .action((options: { json?: boolean }) => {
      const ctx = getContext();
      const { roles, currentProblem } = listRoleSummaries(ctx.config);
      if (currentProblem) ctx.note(`kioku: warning: ${currentProblem}`);
      for (const role of roles) if (role.problem) ctx.note(`kioku: warning: role ${role.id} cannot be read: ${role.problem}`);
      if (options.json) ctx.printJson(roleListJson(roles));
      else
        ctx.print(
          roles.length > 0 ? roleListTable(roles) : `No roles in ${ctx.config.paths.roleHome} yet; create one with \`kioku role new\`.`,
        );
    });

  parent
    .command('show')
    .description('show one role in full (ID, display name or alias)')
    .argument('<role>', 'role ID, display name or alias')
    .option('--json', 'print one JSON object')
    .action((reference: string, options: { json?: boolean }) => {
      const ctx = getContext();
      const role = readRoleDefinition(ctx.config.paths.roleHome, resolveRoleReference(ctx.config.paths.roleHome, reference));
      if (options.json) ctx.printJson(roleShowJson(role));
      else ctx.print(roleShowText(role));
    });

  parent
    .command('new')
    .description('create a role, or update one: an existing role shows an old/new table and a token, and changes only with --confirm TOKEN')
    .option('--name <name>', 'display name (any language; never used as a file name)')
    .option('--nature <text>', 'nature: what the role is, its expertise and principles')
    .option('--vibe <text>', 'vibe: tone, sentence length, how it addresses the user, taboos')
    .option('--emoji <emoji>', 'signature emoji (one or two)')
    .option('--prefix <PREFIX>', 'ID prefix for a new role, 4–16 uppercase letters/digits (e.g. ENGINEER); the next free index is added')
    .option('--id <ID>', 'exact role ID (e.g. ENGINEER01); an existing ID updates that role')
    .option('--aliases <a,b>', 'other names for calling the role (comma-separated; never injected)')
    .option('--source <text>', 'where the character comes from')
    .option('--relationship <text>', 'relationship to the user, preferred form of address, boundaries')
    .option('--confirm <TOKEN>', 'apply the change whose table showed this token')
    .option('--json', 'print one JSON object')
    .action((options: RoleNewOptions) => runRoleNew(getContext(), options));

  parent
    .command('use')
    .description('make a role the active one (written to .active; takes effect in new sessions)')
    .argument('<role>', 'role ID or display name')
    .action((reference: string) => {
      const ctx = getContext();
      const roleHome = ctx.config.paths.roleHome;
      const role = readRoleDefinition(roleHome, resolveRoleReference(roleHome, reference));
      const previous = readActiveRoleId(roleHome);
      const previousName = loadAllRoles(roleHome).find((entry) => entry.id === previous)?.definition?.name;
      const from = previous ? `${previousName ?? '?'} (${previous})` : '(none)';
      if (previous === role.id) ctx.print(`${role.name} (${role.id}) is already the active role.`);
      else {
        writeActiveRoleId(roleHome, role.id);
        ctx.print(
          `Active role: ${from} → ${role.name} ${role.emoji} (${role.id})\nStart a new assistant session for the switch to take effect.`,
        );
      }
      const fromEnv = ctx.config.settings.ROLE_NAME?.trim();
      if (fromEnv && fromEnv !== role.id) ctx.note(`kioku: note: ROLE_NAME=${fromEnv} in this environment overrides .active here`);
    });

  parent
    .command('delete')
    .description('archive a role: its files, assets and memory folder move to .archive/ (nothing is destroyed); the active role is refused')
    .argument('<ID>', 'role ID')
    .action((id: string) => {
      const ctx = getContext();
      const archived = archiveRole(ctx.config, id);
      const lines = [`Archived role ${id}:`, ...archived.moved.map((step) => `  ${step.from}\n    → ${step.to}`)];
      lines.push(`To restore it: kioku role restore ${id}`);
      ctx.print(lines.join('\n'));
    });

  registerRoleRestoreCommands(parent, getContext);

  parent
    .command('export')
    .description('export a role (definition, assets, check scripts, memory folder) to a .tar.gz')
    .argument('<ID-or-path>', 'role ID, or the target when exporting the current role')
    .argument(
      '[path]',
      'target: an existing folder or a path ending in "/" (file named <ID>-role-export-<time>.tar.gz), or a .tar.gz/.tgz path',
    )
    .action((first: string, second: string | undefined) => runRoleExport(getContext(), first, second));

  parent
    .command('import')
    .description('import a role from an archive made by `role export` (refused when the role exists)')
    .argument('<archive>', 'the .tar.gz file')
    .action((archive: string) => runRoleImport(getContext(), archive));

  parent
    .command('migrate')
    .description('split a legacy <ID>.md into <ID>.identity.md and <ID>.soul.md (the legacy file is left as it is)')
    .argument('<ID>', 'role ID')
    .option('--dry-run', 'print what would be written and write nothing')
    .action((id: string, options: { dryRun?: boolean }) => {
      const ctx = getContext();
      const result = migrateLegacyRole(ctx.config, id, { dryRun: Boolean(options.dryRun) });
      const files = result.writes.map((write) =>
        result.dryRun ? `--- ${write.path} (would be written)\n${write.text}` : `  wrote ${write.path}`,
      );
      const lines = [result.dryRun ? `Dry run: migrating role ${id} would write:` : `Migrated role ${id}:`, ...files];
      lines.push(
        `The legacy file ${result.legacyFile} is ${result.dryRun ? 'not touched' : 'left as it was; the two-file format wins from now on'}.`,
      );
      if (result.placeholders.length > 0)
        lines.push(`Fill in the <請補上：…> placeholders (${result.placeholders.join(', ')}) in the identity file.`);
      if (result.droppedSharedBlock) lines.push('The shared-rules block was not carried over: Kioku injects the shared rules itself.');
      ctx.print(lines.join('\n'));
    });
}
