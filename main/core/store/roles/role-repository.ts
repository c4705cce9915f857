import fs from 'node:fs';
import path from 'node:path';
import { KiokuError, isKiokuError } from '../../../../common/errors.js';
import { explainInvalidRoleId, isValidRoleId } from '../../../../common/role-id.js';
import { roleIdOfFileName } from './role-file-name.js';
import { parseLegacyRole, parseSplitRole, type RoleDefinition, type RoleFileText } from './role-definition.js';
import type { RoleParseStore } from './parsed-roles-file.js';

/** The files of one role in the role home (ARCHITECTURE.md §Data on disk). */
export interface RoleFilePaths {
  identity: string;
  soul: string;
  legacy: string;
  checksDir: string;
}

/**
 * The one place that turns a role ID into paths: the ID is checked here, so no caller can build
 * `~/.roles/../x.md` by accident (ROLE-3: refuse before any file is touched).
 */
export function roleFilePaths(roleHome: string, id: string): RoleFilePaths {
  const problem = explainInvalidRoleId(id);
  if (problem) throw new KiokuError('INVALID_ID', problem, { hint: 'list the roles and their IDs with `kioku role list`' });
  return {
    identity: path.join(roleHome, `${id}.identity.md`),
    soul: path.join(roleHome, `${id}.soul.md`),
    legacy: path.join(roleHome, `${id}.md`),
    checksDir: path.join(roleHome, `${id}.checks`),
  };
}

/** True when any definition file of the role is there (even a broken one: it must not be overwritten). */
export function roleFilesExist(roleHome: string, id: string): boolean {
  const files = roleFilePaths(roleHome, id);
  return [files.identity, files.soul, files.legacy].some((file) => fs.existsSync(file));
}

export { roleIdOfFileName };

/** IDs that have at least one role file, sorted. Other `.md` files in the folder are not roles. */
export function listRoleIds(roleHome: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(roleHome);
  } catch {
    return [];
  }
  const ids = new Set<string>();
  for (const name of names) {
    const id = roleIdOfFileName(name);
    if (id) ids.add(id);
  }
  return [...ids].sort();
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Read a role file as text: UTF-8 required, a BOM dropped (ROLE-1: "UTF-8 without BOM"). */
export function readRoleFileText(file: string): RoleFileText {
  const bytes = fs.readFileSync(file);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new KiokuError('INVALID_FILE', `${file} is not UTF-8 text`, { path: file, hint: 'save the file as UTF-8 (without BOM)' });
  }
  return { path: file, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}

/**
 * The last parse of each role's two files, by their text. A SessionStart reads its role three
 * times (the event, the load, the peers list), and parsing the YAML was most of each: 7 ms of one
 * answered without the daemon (X-PERF). Each caller gets its own copy to change as it likes.
 */
const lastParsed = new Map<string, { identity: string; soul: string; definition: RoleDefinition }>();

/** Parses kept between processes too (parsed-roles-file.ts): set by a process that starts often (the hook's fallback). */
let keptParses: RoleParseStore | undefined;

/** Keep this process's role parses in `store` and take earlier ones from it. */
export function keepRoleParses(store: RoleParseStore | undefined): void {
  keptParses = store;
}

function parseSplitRoleOnce(id: string, identity: RoleFileText, soul: RoleFileText): RoleDefinition {
  const known = lastParsed.get(identity.path);
  if (known && known.identity === identity.text && known.soul === soul.text && known.definition.id === id)
    return structuredClone(known.definition);
  const kept = keptParses?.get(id, identity, soul);
  const definition = kept ?? parseSplitRole(id, identity, soul);
  lastParsed.set(identity.path, { identity: identity.text, soul: soul.text, definition: structuredClone(definition) });
  if (!kept) keptParses?.put(id, identity, soul, structuredClone(definition));
  return definition;
}

/**
 * A role's definition. The two-file format wins when both formats exist; the legacy file is
 * the fallback (ROLE-2).
 */
export function readRoleDefinition(roleHome: string, id: string): RoleDefinition {
  const files = roleFilePaths(roleHome, id);
  const has = (file: string) => fs.existsSync(file);
  if (has(files.identity)) {
    if (!has(files.soul)) {
      throw new KiokuError('INVALID_FILE', `${files.soul} is missing (the role has ${path.basename(files.identity)} but no soul file)`, {
        path: files.soul,
        hint: `write ${path.basename(files.soul)} with "## 本質（nature）" and "## 氛圍（vibe）" sections`,
      });
    }
    return parseSplitRoleOnce(id, readRoleFileText(files.identity), readRoleFileText(files.soul));
  }
  if (has(files.legacy)) return parseLegacyRole(id, readRoleFileText(files.legacy));
  if (has(files.soul)) {
    throw new KiokuError('INVALID_FILE', `${files.identity} is missing (the role has only ${path.basename(files.soul)})`, {
      path: files.identity,
      hint: `write ${path.basename(files.identity)} with the role's name and emoji, or archive the role with \`kioku role delete ${id}\``,
    });
  }
  throw new KiokuError('NOT_FOUND', `no role ${id} in ${roleHome}`, { hint: 'list the roles with `kioku role list`' });
}

export type RoleListing =
  | { id: string; definition: RoleDefinition; problem?: undefined }
  | { id: string; definition?: undefined; problem: { message: string; path: string | undefined } };

/**
 * Every role, each parsed on its own: one unreadable file never hides the others (ROLE-7).
 * `known`: a role this event has read already (a SessionStart's own role, for its peers list),
 * not read again.
 */
export function loadAllRoles(roleHome: string, known?: RoleDefinition): RoleListing[] {
  return listRoleIds(roleHome).map((id): RoleListing => {
    if (known?.id === id) return { id, definition: known };
    try {
      return { id, definition: readRoleDefinition(roleHome, id) };
    } catch (error) {
      if (!isKiokuError(error)) throw error;
      return { id, problem: { message: error.message, path: error.path } };
    }
  });
}

/**
 * An ID, display name or alias → the role ID (ROLE-7: resolve the name the way the list does
 * to one ID; ask the user when none or several match). Display names win over aliases; more than one match is
 * an error listing the candidates. Reads files only.
 */
export function resolveRoleReference(roleHome: string, reference: string): string {
  const ref = reference.trim().normalize('NFC');
  if (isValidRoleId(ref) && roleFilesExist(roleHome, ref)) return ref;
  const roles = loadAllRoles(roleHome).flatMap((entry) => (entry.definition ? [entry.definition] : []));
  const same = (a: string) => a.normalize('NFC').toLowerCase() === ref.toLowerCase();
  const byName = roles.filter((role) => same(role.name));
  const matches = byName.length > 0 ? byName : roles.filter((role) => role.aliases.some(same));
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length > 1) {
    throw new KiokuError(
      'AMBIGUOUS',
      `"${ref}" names more than one role: ${matches.map((role) => `${role.id} (${role.name})`).join(', ')}`,
      {
        hint: 'use the role ID instead of the name',
      },
    );
  }
  if (isValidRoleId(ref))
    throw new KiokuError('NOT_FOUND', `no role ${ref} in ${roleHome}`, { hint: 'list the roles with `kioku role list`' });
  const idProblem = explainInvalidRoleId(ref) ?? '';
  // A CJK text is most likely a display name that does not exist; anything else was meant as an ID.
  if (/[^\x20-\x7e]/.test(ref) && !/[/\\]|\.\./.test(ref)) {
    throw new KiokuError('NOT_FOUND', `no role has the display name or alias "${ref}" (and it is not a role ID: ${idProblem})`, {
      hint: 'list the roles with `kioku role list`',
    });
  }
  throw new KiokuError('INVALID_ID', idProblem, {
    hint: `no role has "${ref}" as its display name or alias either; give a role ID or a name listed by \`kioku role list\``,
  });
}
