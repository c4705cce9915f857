import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isValidRoleId } from '../../../common/role-id.js';
import type { KiokuConfig } from '../config/config.js';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import { loadAllRoles, roleIdOfFileName } from '../roles/role-repository.js';
import type { CallableRole } from './match-role-call.js';

/**
 * The names a prompt is matched against (CALL-4: the silent path answers fast). Parsing every
 * role's frontmatter on every prompt would be the bulk of the work, so the names are cached,
 * keyed by a fingerprint of the role files (name, size, mtime, ctime, inode of each): a role
 * added, removed, renamed or edited in place changes it, and the cache is simply not used.
 *
 * Two layers: a memo for the long-lived daemon, and `<state dir>/call-names.json` for the hook
 * client's short processes. The file is written only by refreshCallNameCache — at a switch, or
 * by SessionStart — never on the silent path, which must write nothing (seed 000 §點名載入
 * "未點名時不輸出任何內容也不寫任何檔案"). A stale or missing cache costs a parse, never a
 * wrong answer.
 */
interface NameCacheFile {
  v: 1;
  roleHome: string;
  fingerprint: string;
  roles: CallableRole[];
}

const CACHE_FILE_NAME = 'call-names.json';
const memo = new Map<string, { fingerprint: string; roles: CallableRole[] }>();

export function callNameCachePath(config: KiokuConfig): string {
  return path.join(config.paths.stateDir, CACHE_FILE_NAME);
}

/** Fingerprint of the role files in the role home; one readdir and a stat per role file. */
export function roleFilesFingerprint(roleHome: string): string {
  let names: string[];
  try {
    names = fs.readdirSync(roleHome);
  } catch {
    return 'no-role-home';
  }
  const parts: string[] = [];
  for (const name of names.sort()) {
    if (!roleIdOfFileName(name)) continue;
    try {
      const stat = fs.statSync(path.join(roleHome, name));
      parts.push(`${name}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`);
    } catch {
      parts.push(`${name}:gone`);
    }
  }
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

function isCallableRole(value: unknown): value is CallableRole {
  const role = value as CallableRole | null;
  return Boolean(role) && isValidRoleId(String(role?.id)) && typeof role?.name === 'string' && Array.isArray(role.aliases) && role.aliases.every((a) => typeof a === 'string');
}

function readCacheFile(config: KiokuConfig): NameCacheFile | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(callNameCachePath(config), 'utf8')) as NameCacheFile;
    // A cache edited by hand or by another version must not crash the matcher: all or nothing.
    if (parsed?.v === 1 && typeof parsed.fingerprint === 'string' && Array.isArray(parsed.roles) && parsed.roles.every(isCallableRole)) return parsed;
  } catch {
    /* no cache yet, or a broken one: parse the roles instead */
  }
  return undefined;
}

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
  const cached = readCacheFile(config);
  if (cached && cached.roleHome === roleHome && cached.fingerprint === fingerprint) {
    memo.set(roleHome, { fingerprint, roles: cached.roles });
    return { roles: cached.roles, fingerprint, source: 'file' };
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
  const cached = readCacheFile(config);
  if (cached && cached.roleHome === config.paths.roleHome && cached.fingerprint === fingerprint) return false;
  const content: NameCacheFile = { v: 1, roleHome: config.paths.roleHome, fingerprint, roles };
  // A cache (the roles are the truth): no fsync, a lost write is rebuilt by the next refresh.
  writeFileAtomicSync(callNameCachePath(config), `${JSON.stringify(content)}\n`, { durable: false });
  return true;
}
