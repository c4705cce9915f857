import fs from 'node:fs';
import { KiokuError } from '../../../common/errors.js';
import { explainInvalidRoleId } from '../../../common/role-id.js';
import type { KiokuConfig } from '../../core/platform/config/config.js';
import { roleMemoryDir } from '../../core/store/memory/memory-layout.js';
import { resolveCurrentRole } from '../../core/store/roles/role-active.js';
import { roleFilesExist } from '../../core/store/roles/role-repository.js';

/**
 * The role a `kioku memory …` command works on (CLI.md): `--role`, else ROLE_NAME, else the
 * `.active` file. Nothing resolvable is bad usage (exit 2) with both ways out in the hint.
 */
export function resolveMemoryRole(config: KiokuConfig, explicit: string | undefined): string {
  const given = explicit?.trim();
  if (given) {
    const problem = explainInvalidRoleId(given);
    if (problem) throw new KiokuError('INVALID_ID', `--role: ${problem}`, { hint: 'list the roles with `kioku role list`' });
    return given;
  }
  const current = resolveCurrentRole(config);
  if (current) return current.id;
  throw new KiokuError('BAD_USAGE', 'no role given, ROLE_NAME is not set and there is no active role', {
    hint: 'pass --role ID, or choose the active role with `kioku role use ID`',
  });
}

/**
 * For commands that write: the role must exist (definition files, or at least a memory folder,
 * as after an import), so a typo never quietly starts a new memory folder.
 */
export function resolveExistingMemoryRole(config: KiokuConfig, explicit: string | undefined): string {
  const role = resolveMemoryRole(config, explicit);
  if (roleFilesExist(config.paths.roleHome, role) || fs.existsSync(roleMemoryDir(config.paths.memoryHome, role))) return role;
  throw new KiokuError('NOT_FOUND', `role ${role} does not exist: no definition in ${config.paths.roleHome} and no memory folder in ${config.paths.memoryHome}`, {
    hint: 'check the ID with `kioku role list`, or create the role with `kioku role new`',
  });
}
