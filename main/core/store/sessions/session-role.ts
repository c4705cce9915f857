import type { HookEvent } from '../../../../common/hook-events.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { resolveCurrentRole } from '../roles/role-active.js';
import { roleFilesExist } from '../roles/role-repository.js';
import { sessionKeyOf } from './session-key.js';
import { readSessionRole } from './session-role-file.js';

export interface SessionRole {
  id: string;
  /** `session`: the session's `.role` file (a call switched it); `env`: ROLE_NAME; `active`: `.active`. */
  source: 'session' | 'env' | 'active';
}

/**
 * Who this session actually is (seed 000 §記憶歸屬): the session's `.role` file, else
 * `ROLE_NAME`/`.active`. A `.role` file naming a role whose files are gone (deleted or archived
 * since) is ignored, so memories never go to a role that no longer exists. Throws like
 * resolveCurrentRole when ROLE_NAME or `.active` holds an invalid ID; hooks catch and stay silent.
 */
export function resolveSessionRole(config: KiokuConfig, event: Pick<HookEvent, 'sessionId' | 'transcriptPath'>): SessionRole | undefined {
  const key = sessionKeyOf(event);
  if (key) {
    const id = readSessionRole(config, key);
    if (id && roleFilesExist(config.paths.roleHome, id)) return { id, source: 'session' };
  }
  return resolveCurrentRole(config);
}
