import { KiokuError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { roleFilesExist } from '../../store/roles/role-repository.js';
import fs from 'node:fs';
import { roleMemoryDir } from '../../store/memory/memory-layout.js';

/** A role the UI may change memories of: it has definition files or a memory folder (as the CLI asks). */
export function resolveWritableRole(config: KiokuConfig, role: string): string {
  if (roleFilesExist(config.paths.roleHome, role) || fs.existsSync(roleMemoryDir(config.paths.memoryHome, role))) return role;
  throw new KiokuError('NOT_FOUND', `role ${role} does not exist`, { hint: 'reload the page; the role may have been archived' });
}
