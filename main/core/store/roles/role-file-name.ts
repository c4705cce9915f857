import { isValidRoleId } from '../../../../common/role-id.js';

/**
 * Which files in the role home are role files. On its own (node built-ins and the ID rule only)
 * because the hook client checks the call-name cache's freshness with it on every prompt.
 */
const ROLE_FILE_NAME = /^(.+?)(?:\.identity|\.soul)?\.md$/;

/** The role ID a file name belongs to, when it is a role file (`X01.md`, `X01.identity.md`, `X01.soul.md`). */
export function roleIdOfFileName(name: string): string | undefined {
  const id = ROLE_FILE_NAME.exec(name)?.[1];
  return id !== undefined && isValidRoleId(id) ? id : undefined;
}
