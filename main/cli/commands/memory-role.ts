import { KiokuError } from '../../../common/errors.js';
import { explainInvalidRoleId } from '../../../common/role-id.js';
import type { KiokuConfig } from '../../core/platform/config/config.js';
import { resolveCurrentRole } from '../../core/store/roles/role-active.js';

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
