import fs from 'node:fs';
import { KiokuError } from '../../../common/errors.js';
import type { KiokuConfig } from '../../core/platform/config/config.js';
import { roleMemoryDir } from '../../core/store/memory/memory-layout.js';
import { roleFilesExist } from '../../core/store/roles/role-repository.js';
import { resolveMemoryRole } from './memory-role.js';

/**
 * For commands that write: the role must exist (definition files, or at least a memory folder,
 * as after an import), so a typo never quietly starts a new memory folder.
 */
export function resolveExistingMemoryRole(config: KiokuConfig, explicit: string | undefined): string {
  const role = resolveMemoryRole(config, explicit);
  if (roleFilesExist(config.paths.roleHome, role) || fs.existsSync(roleMemoryDir(config.paths.memoryHome, role))) return role;
  throw new KiokuError(
    'NOT_FOUND',
    `role ${role} does not exist: no definition in ${config.paths.roleHome} and no memory folder in ${config.paths.memoryHome}`,
    {
      hint: 'check the ID with `kioku role list`, or create the role with `kioku role new`',
    },
  );
}
