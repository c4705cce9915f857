import { isKiokuError } from '../../../../common/errors.js';
import type { RoleListItem } from '../../../../common/ui-contract-types.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { listMemoryFiles, roleMemoryDir } from '../memory/memory-layout.js';
import { resolveCurrentRole, type CurrentRole } from './role-active.js';
import { firstLine } from './role-definition.js';
import { loadAllRoles } from './role-repository.js';

/**
 * One row of `role list` (ROLE-7). The first five fields are the `--json`
 * contract of CLI.md; `problem` is set when the role's files cannot be read.
 */
export interface RoleSummary extends RoleListItem {
  memoryDir: string;
}

/** The row the UI shows (the UI contract's RoleListItem): the summary without its folder. */
export function roleListItem(role: RoleSummary): RoleListItem {
  return {
    id: role.id,
    name: role.name,
    emoji: role.emoji,
    active: role.active,
    memoryCount: role.memoryCount,
    natureFirstLine: role.natureFirstLine,
    updated: role.updated,
    format: role.format,
    ...(role.problem ? { problem: role.problem } : {}),
  };
}

export interface RoleSummaries {
  roles: RoleSummary[];
  current: CurrentRole | undefined;
  /** Why the current role could not be resolved (bad ROLE_NAME or `.active`), if so. */
  currentProblem: string | undefined;
}

/** Every role with its memory count; never throws over one role's files. */
export function listRoleSummaries(config: KiokuConfig): RoleSummaries {
  let current: CurrentRole | undefined;
  let currentProblem: string | undefined;
  try {
    current = resolveCurrentRole(config);
  } catch (error) {
    if (!isKiokuError(error)) throw error;
    currentProblem = error.message;
  }
  const roles = loadAllRoles(config.paths.roleHome).map((entry): RoleSummary => {
    const memoryDir = roleMemoryDir(config.paths.memoryHome, entry.id);
    const base = {
      id: entry.id,
      active: entry.id === current?.id,
      memoryCount: listMemoryFiles(config.paths.memoryHome, entry.id).length,
      memoryDir,
    };
    if (!entry.definition) {
      return { ...base, name: '', emoji: '', natureFirstLine: '', updated: '', format: 'unreadable', problem: entry.problem.message };
    }
    const role = entry.definition;
    return {
      ...base,
      name: role.name,
      emoji: role.emoji,
      natureFirstLine: firstLine(role.nature),
      updated: role.updated,
      format: role.format,
    };
  });
  return { roles, current, currentProblem };
}
