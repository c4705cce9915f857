import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { explainInvalidRoleId } from '../../../../common/role-id.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';

/** `<role home>/.active`: one line, the active role ID (ROLE-4, ROLE-6). */
export function activeFilePath(roleHome: string): string {
  return path.join(roleHome, '.active');
}

/** The ID written in `.active` as it is (first line, trimmed), or undefined when there is none. */
export function readActiveRoleId(roleHome: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(activeFilePath(roleHome), 'utf8');
  } catch {
    return undefined;
  }
  const line = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/, 1)[0]
    ?.trim();
  return line ? line : undefined;
}

export function writeActiveRoleId(roleHome: string, id: string): void {
  const problem = explainInvalidRoleId(id);
  if (problem) throw new KiokuError('INVALID_ID', problem);
  writeFileAtomicSync(activeFilePath(roleHome), `${id}\n`);
}

export interface CurrentRole {
  id: string;
  /** `env`: ROLE_NAME (this environment only); `active`: the `.active` file. */
  source: 'env' | 'active';
}

/**
 * The role this environment runs as: `ROLE_NAME` overrides `.active` (ROLE-4). Undefined when
 * neither is set. Whether the role's files exist is not checked here. A value that is not a
 * valid role ID throws, naming where it came from, because using it would build paths from it;
 * hooks catch this and stay silent (HOOK-2). A bad `.active` is a broken file (exit 1), not a
 * usage error: the user typed nothing wrong on this command line.
 */
export function resolveCurrentRole(config: KiokuConfig): CurrentRole | undefined {
  const fromEnv = config.settings.ROLE_NAME?.trim();
  if (fromEnv) {
    const problem = explainInvalidRoleId(fromEnv);
    if (problem)
      throw new KiokuError('INVALID_ID', `ROLE_NAME: ${problem}`, {
        hint: 'set ROLE_NAME to a role ID (see `kioku role list`), or unset it',
      });
    return { id: fromEnv, source: 'env' };
  }
  const fromFile = readActiveRoleId(config.paths.roleHome);
  if (!fromFile) return undefined;
  const problem = explainInvalidRoleId(fromFile);
  const file = activeFilePath(config.paths.roleHome);
  if (problem) {
    throw new KiokuError('INVALID_FILE', `${file}: ${problem}`, { path: file, hint: 'choose the active role with `kioku role use <ID>`' });
  }
  return { id: fromFile, source: 'active' };
}
