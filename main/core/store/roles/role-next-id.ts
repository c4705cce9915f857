import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { isValidRoleId, isValidRolePrefix, splitRoleId } from '../../../../common/role-id.js';
import type { KiokuPaths } from '../../platform/config/paths.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { roleIdOfFileName } from './role-repository.js';

/** Archive folders are `<ID>-<yyyyMMdd-HHmmss>` (role-archive.ts). */
const ARCHIVE_ENTRY = /^([A-Z][A-Z0-9]{3,15}[0-9]{2})-\d{8}-\d{6}(?:-\d+)?$/;

function safeReadDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function frontmatterId(file: string): string | undefined {
  try {
    const id = parseFrontmatter(fs.readFileSync(file, 'utf8')).data.id;
    return typeof id === 'string' && isValidRoleId(id.trim()) ? id.trim() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every role ID in use: role file names and their frontmatter `id` (ROLE-3),
 * plus memory folders and archived roles — an archived role can be restored by moving its files
 * back, and a memory folder may exist before its role file, so neither ID may be handed out again.
 */
export function collectUsedRoleIds(paths: Pick<KiokuPaths, 'roleHome' | 'memoryHome'>): Set<string> {
  const used = new Set<string>();
  for (const name of safeReadDir(paths.roleHome)) {
    if (!name.endsWith('.md') || name.startsWith('.')) continue;
    const fromName = roleIdOfFileName(name);
    if (fromName) used.add(fromName);
    const fromFrontmatter = frontmatterId(path.join(paths.roleHome, name));
    if (fromFrontmatter) used.add(fromFrontmatter);
  }
  for (const name of safeReadDir(paths.memoryHome)) if (isValidRoleId(name)) used.add(name);
  for (const home of [paths.roleHome, paths.memoryHome]) {
    for (const name of safeReadDir(path.join(home, '.archive'))) {
      const id = ARCHIVE_ENTRY.exec(name)?.[1];
      if (id) used.add(id);
    }
  }
  return used;
}

/** Next index = highest used index for the prefix + 1, from 01 (ROLE-3). */
export function nextRoleId(paths: Pick<KiokuPaths, 'roleHome' | 'memoryHome'>, prefix: string): string {
  if (!isValidRolePrefix(prefix)) {
    throw new KiokuError(
      'BAD_USAGE',
      `role ID prefix "${prefix}" is not valid: it needs 4–16 uppercase letters or digits starting with a letter, e.g. ENGINEER`,
      {
        hint: 'pass --prefix with an English uppercase word that describes the role',
      },
    );
  }
  let highest = 0;
  for (const id of collectUsedRoleIds(paths)) {
    const parts = splitRoleId(id);
    if (parts && parts.prefix === prefix) highest = Math.max(highest, parts.index);
  }
  if (highest >= 99) {
    throw new KiokuError('LIMIT_EXCEEDED', `every index of prefix ${prefix} is taken (${prefix}99 exists)`, {
      hint: 'choose another prefix with --prefix, e.g. a more specific English word',
    });
  }
  return `${prefix}${String(highest + 1).padStart(2, '0')}`;
}

/**
 * A prefix from an English display name ("Silica" → SILICA). Only for names written wholly in
 * ASCII: a CJK name says nothing the ID could spell, and guessing is forbidden (ROLE-5:
 * "不得硬猜"), so undefined asks the caller for --prefix.
 */
export function prefixFromName(name: string): string | undefined {
  if (/[^\x20-\x7e]/.test(name)) return undefined;
  const letters = name
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/^[0-9]+/, '')
    .slice(0, 16);
  return isValidRolePrefix(letters) ? letters : undefined;
}
