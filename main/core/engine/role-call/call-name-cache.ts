import fs from 'node:fs';
import path from 'node:path';
import { isValidRoleId } from '../../../../common/role-id.js';
import { roleIdOfFileName } from '../../store/roles/role-file-name.js';
import type { CallableRole } from './match-role-call.js';

/**
 * `<state dir>/call-names.json`: the names a prompt is matched against, with the fingerprint of the
 * role files they were read from (call-names.ts writes it).
 * Design notes: docs/design-notes.md, "main/core/engine/role-call/call-name-cache.ts".
 */
export interface NameCacheFile {
  v: 2;
  roleHome: string;
  fingerprint: string;
  roles: CallableRole[];
}

const CACHE_FILE_NAME = 'call-names.json';

export function callNameCachePath(config: { paths: { stateDir: string } }): string {
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
  return parts.join('\n');
}

function isCallableRole(value: unknown): value is CallableRole {
  const role = value as CallableRole | null;
  return (
    Boolean(role) &&
    isValidRoleId(String(role?.id)) &&
    typeof role?.name === 'string' &&
    Array.isArray(role.aliases) &&
    role.aliases.every((a) => typeof a === 'string')
  );
}

/** The cache file when it is whole and of this version; undefined otherwise (never throws). */
export function readNameCache(config: { paths: { stateDir: string } }): NameCacheFile | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(callNameCachePath(config), 'utf8')) as NameCacheFile;
    // A cache edited by hand or by another version must not crash the matcher: all or nothing.
    if (parsed?.v === 2 && typeof parsed.fingerprint === 'string' && Array.isArray(parsed.roles) && parsed.roles.every(isCallableRole))
      return parsed;
  } catch {
    /* no cache yet, or a broken one */
  }
  return undefined;
}

/** The cached names when they were read from the role files as they are now; else undefined. */
export function freshCachedNames(
  config: { paths: { stateDir: string; roleHome: string } },
  fingerprint = roleFilesFingerprint(config.paths.roleHome),
): CallableRole[] | undefined {
  const cached = readNameCache(config);
  return cached && cached.roleHome === config.paths.roleHome && cached.fingerprint === fingerprint ? cached.roles : undefined;
}
