import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../common/errors.js';
import { isValidRoleId } from '../../../common/role-id.js';
import type { KiokuConfig } from '../../core/platform/config/config.js';
import { resolveCurrentRole } from '../../core/store/roles/role-active.js';
import { roleFilesExist } from '../../core/store/roles/role-repository.js';
import type { CliContext } from '../cli-context.js';

/**
 * `role export` and `role import` (CLI.md, ROLE-9). Kept apart from role-commands.ts so the
 * argument rules can be tested without the built CLI.
 */

/**
 * Whether the single argument of `role export X` names a role rather than a target. The role skill's
 * two forms (`--export <path>` / `--export <ID> <path>`) make `role export NIGHT01` ambiguous;
 * read as a target it would silently export the *current* role into a folder called NIGHT01
 * (from the memory home, that is NIGHT01's own memory folder). An existing role always counts
 * as meant; so does any ID-shaped word that is not an existing path (an ID never ends in `/`,
 * `.tar.gz` or `.tgz`, so it cannot be one of the file-name target forms either).
 */
function looksLikeRoleId(config: KiokuConfig, word: string): boolean {
  if (!isValidRoleId(word)) return false;
  return roleFilesExist(config.paths.roleHome, word) || !fs.existsSync(path.resolve(word));
}

/** The role and target of `role export <ID-or-path> [path]`. */
export function exportArguments(config: KiokuConfig, first: string, second: string | undefined): { id: string; target: string } {
  if (second !== undefined) return { id: first, target: second };
  if (looksLikeRoleId(config, first)) {
    throw new KiokuError('BAD_USAGE', `"${first}" is a role ID; say where to export it: \`kioku role export ${first} <path>\``, {
      hint: `e.g. \`kioku role export ${first} ~/role-backups/\`; to export the current role into a folder named ${first}, write \`./${first}/\``,
    });
  }
  const current = resolveCurrentRole(config);
  if (!current)
    throw new KiokuError('BAD_USAGE', 'no role given and no current role (.active or ROLE_NAME)', {
      hint: 'name the role: `kioku role export <ID> <path>`',
    });
  return { id: current.id, target: first };
}

export async function runRoleExport(ctx: CliContext, first: string, second: string | undefined): Promise<void> {
  const { id, target } = exportArguments(ctx.config, first, second);
  // tar and the manifest schema load only for export/import (they cost ~150 ms of start-up).
  const { exportRole } = await import('../../core/store/roles/role-export.js');
  const result = exportRole(ctx.config, id, target);
  for (const skipped of result.skipped) ctx.note(`kioku: warning: left out ${skipped} (not a regular file or folder)`);
  ctx.print(`Exported role ${id} (${result.manifest.files.length} files) to ${result.archive}`);
}

/** A path as one shell word, so the printed `chmod +x …` can be pasted even when the home has spaces. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

export async function runRoleImport(ctx: CliContext, archive: string): Promise<void> {
  const { importRole } = await import('../../core/store/roles/role-import.js');
  const result = importRole(ctx.config, archive);
  for (const skipped of result.skipped)
    ctx.note(`kioku: note: did not import ${skipped} (a lock or temp file of the home it was exported from)`);
  for (const warning of result.warnings) ctx.note(`kioku: warning: ${warning}`);
  const lines = [
    `Imported role ${result.role.name} ${result.role.emoji} (${result.role.id}): ${result.written.length} files`,
    ...result.role.files.map((file) => `  role file: ${file}`),
    `  memory:    ${result.memoryDir}`,
  ];
  if (result.checkScripts.length > 0) {
    // BRIEF-1 runs executable check scripts every morning unattended; imported ones wait for the user.
    lines.push('Check scripts were imported NOT executable, so the morning brief skips them until you enable them:');
    for (const script of result.checkScripts) lines.push(`  ${script}: review it, then \`chmod +x ${shellWord(script)}\` to enable`);
  }
  lines.push(`Make it active with \`kioku role use ${result.role.id}\`, then start a new assistant session.`);
  ctx.print(lines.join('\n'));
}
