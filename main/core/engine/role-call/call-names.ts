import type { KiokuConfig } from '../../platform/config/config.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { loadAllRoles } from '../../store/roles/role-repository.js';
import { callNameCachePath, freshCachedNames, roleFilesFingerprint, type NameCacheFile } from './call-name-cache.js';
import type { CallableRole } from './match-role-call.js';

export { callNameCachePath, roleFilesFingerprint };

/**
 * The names a prompt is matched against (CALL-4: the silent path answers fast). Parsing every
 * role's frontmatter on every prompt would be the bulk of the work, so the names are cached,
 * keyed by a fingerprint of the role files (call-name-cache.ts): a role added, removed, renamed
 * or edited in place changes it, and the cache is simply not used.
 *
 * Two layers: a memo for the long-lived daemon, and `<state dir>/call-names.json` for the hook
 * client's short processes (which also reads it itself: a prompt that names nobody goes without
 * asking the app, silent-prompt.ts). The file is written only by refreshCallNameCache — at a
 * switch, or by SessionStart — never on the silent path, which must write nothing (seed 000
 * §點名載入 "未點名時不輸出任何內容也不寫任何檔案"). A stale or missing cache costs a parse,
 * never a wrong answer.
 */
const memo = new Map<string, { fingerprint: string; roles: CallableRole[] }>();

function parseCallableRoles(roleHome: string): CallableRole[] {
  // Unreadable roles cannot be loaded, so they cannot be called either (loadAllRoles keeps them
  // apart with their problem instead of throwing).
  return loadAllRoles(roleHome).flatMap((entry) =>
    entry.definition ? [{ id: entry.id, name: entry.definition.name, aliases: [...entry.definition.aliases] }] : [],
  );
}

export interface CallableRoles {
  roles: CallableRole[];
  fingerprint: string;
  /** Where the names came from: `memo` and `file` read no role file. */
  source: 'memo' | 'file' | 'parsed';
}

/** The callable roles, read-only: never writes (safe on the silent path). */
export function loadCallableRoles(config: KiokuConfig): CallableRoles {
  const roleHome = config.paths.roleHome;
  const fingerprint = roleFilesFingerprint(roleHome);
  const memoed = memo.get(roleHome);
  if (memoed?.fingerprint === fingerprint) return { roles: memoed.roles, fingerprint, source: 'memo' };
  const cached = freshCachedNames(config, fingerprint);
  if (cached) {
    memo.set(roleHome, { fingerprint, roles: cached });
    return { roles: cached, fingerprint, source: 'file' };
  }
  const roles = parseCallableRoles(roleHome);
  memo.set(roleHome, { fingerprint, roles });
  return { roles, fingerprint, source: 'parsed' };
}

/**
 * Write the name cache when it is missing or stale. For moments that write anyway: a switch,
 * SessionStart, the app after a role edit. Returns true when the file was (re)written.
 */
export function refreshCallNameCache(config: KiokuConfig): boolean {
  const { roles, fingerprint } = loadCallableRoles(config);
  if (freshCachedNames(config, fingerprint)) return false;
  const content: NameCacheFile = { v: 2, roleHome: config.paths.roleHome, fingerprint, roles };
  // A cache (the roles are the truth): no fsync, a lost write is rebuilt by the next refresh.
  writeFileAtomicSync(callNameCachePath(config), `${JSON.stringify(content)}\n`, { durable: false });
  return true;
}
