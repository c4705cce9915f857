import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type { EmojiMoodId } from '../../../../common/emoji-grid.js';
import { explainInvalidRoleId } from '../../../../common/role-id.js';

/**
 * Where a role's mood sheets live (ROLE-10: saved as
 * `~/.roles/.assets/emojis/<id>-emotions-sheet.png`, lowercase is fine, never overwriting an
 * existing file but adding a version suffix).
 * Every file of a sheet sits flat in `.assets/emojis/` and starts with `<id in lowercase>-`, so
 * `role export`, `role import` and `role delete` (role-archive.ts roleAssetFiles) carry them:
 *
 *   engineer01-emotions-sheet.png            the sheet (a later import: -emotions-sheet-2.png, …)
 *   engineer01-emotions-sheet.grid.json      the grid it was cut with
 *   engineer01-emotions-sheet-happy.png …    the nine cells, named by mood
 */

export function emojiAssetsDir(assetsDir: string): string {
  return path.join(assetsDir, 'emojis');
}

function lowerId(id: string): string {
  const problem = explainInvalidRoleId(id);
  if (problem) throw new KiokuError('INVALID_ID', problem, { hint: 'list the roles and their IDs with `kioku role list`' });
  return id.toLowerCase();
}

/** `engineer01-emotions-sheet.png` (version 1) or `engineer01-emotions-sheet-<n>.png`. */
export function sheetFileName(id: string, version: number): string {
  return `${lowerId(id)}-emotions-sheet${version > 1 ? `-${version}` : ''}.png`;
}

/** The version of a sheet file name of this role, or undefined when it is not one. */
export function sheetVersionOf(id: string, name: string): number | undefined {
  const match = new RegExp(`^${lowerId(id)}-emotions-sheet(?:-([2-9]|[1-9][0-9]{1,3}))?\\.png$`).exec(name);
  if (!match) return undefined;
  return match[1] === undefined ? 1 : Number(match[1]);
}

/** The sheet name without `.png`: the stem of its grid file and its cells. */
function sheetStem(sheetName: string): string {
  return sheetName.replace(/\.png$/, '');
}

export function gridFileName(sheetName: string): string {
  return `${sheetStem(sheetName)}.grid.json`;
}

export function cellFileName(sheetName: string, mood: EmojiMoodId): string {
  return `${sheetStem(sheetName)}-${mood}.png`;
}

/** This role's sheets, oldest version first. */
export function listSheetNames(assetsDir: string, id: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(emojiAssetsDir(assetsDir));
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, version: sheetVersionOf(id, name) }))
    .filter((entry): entry is { name: string; version: number } => entry.version !== undefined)
    .sort((a, b) => a.version - b.version)
    .map((entry) => entry.name);
}

/** The first version whose file is not there yet (never overwrite a sheet). */
export function nextSheetName(assetsDir: string, id: string): string {
  const taken = listSheetNames(assetsDir, id).map((name) => sheetVersionOf(id, name)!);
  return sheetFileName(id, taken.length === 0 ? 1 : Math.max(...taken) + 1);
}

/**
 * The absolute path of a sheet named by a caller (the UI, or a path given to the CLI), after
 * checking that the name is one of this role's sheets and that the file is there.
 */
export function existingSheetPath(assetsDir: string, id: string, sheetName: string): string {
  if (sheetVersionOf(id, sheetName) === undefined) {
    throw new KiokuError('BAD_USAGE', `"${sheetName}" is not an emoji sheet of role ${id}`, {
      hint: `sheet files are named ${sheetFileName(id, 1)}, ${sheetFileName(id, 2)}, …`,
    });
  }
  const file = path.join(emojiAssetsDir(assetsDir), sheetName);
  if (!fs.existsSync(file)) {
    throw new KiokuError('NOT_FOUND', `no emoji sheet ${file}`, { hint: 'import the sheet image again' });
  }
  return file;
}

/** When `file` is one of this role's stored sheets (the CLI re-cutting a sheet), its name. */
export function storedSheetNameOf(assetsDir: string, id: string, file: string): string | undefined {
  let real: string;
  let dir: string;
  try {
    real = fs.realpathSync(file);
    dir = fs.realpathSync(emojiAssetsDir(assetsDir));
  } catch {
    return undefined;
  }
  if (path.dirname(real) !== dir) return undefined;
  const name = path.basename(real);
  return sheetVersionOf(id, name) === undefined ? undefined : name;
}
