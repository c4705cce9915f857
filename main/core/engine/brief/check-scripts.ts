import fs from 'node:fs';
import path from 'node:path';
import { listRoleIds, roleFilePaths } from '../../store/roles/role-repository.js';

/**
 * The check scripts of a role's morning brief (BRIEF-1, seed 000 §--brief): `<role home>/<ID>.checks/*.sh`,
 * in name order. The seed's rules: 目錄不存在 → 完全不動作; 只執行 `*.sh`，且必須有執行權限；沒有 `+x`
 * 會記一筆警告並略過. Dot files are left out as a shell's `*.sh` leaves them out. A role import writes
 * check scripts without the executable bit on purpose (role-import.ts), so a script from someone
 * else's archive runs only after the user has read it and run the chmod this module suggests.
 */
export interface CheckScript {
  name: string;
  path: string;
  executable: boolean;
}

export interface CheckScriptListing {
  /** `<role home>/<ID>.checks`, whether or not it exists. */
  dir: string;
  exists: boolean;
  scripts: CheckScript[];
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function listCheckScripts(roleHome: string, role: string): CheckScriptListing {
  const dir = roleFilePaths(roleHome, role).checksDir;
  let names: string[];
  try {
    if (!fs.statSync(dir).isDirectory()) return { dir, exists: false, scripts: [] };
    names = fs.readdirSync(dir);
  } catch {
    return { dir, exists: false, scripts: [] };
  }
  // Code-point order, not the locale's: the same order on every machine and in every test.
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const scripts: CheckScript[] = [];
  for (const name of names) {
    if (!name.endsWith('.sh') || name.startsWith('.')) continue;
    const file = path.join(dir, name);
    try {
      if (!fs.statSync(file).isFile()) continue;
    } catch {
      continue; // a dangling symlink: nothing to run
    }
    scripts.push({ name, path: file, executable: isExecutable(file) });
  }
  return { dir, exists: true, scripts };
}

/** The roles with a checks folder (the only ones the schedule runs a brief for). */
export function rolesWithChecks(roleHome: string): string[] {
  return listRoleIds(roleHome).filter((role) => listCheckScripts(roleHome, role).exists);
}

/** What to tell the user about a script that is not executable. */
export function chmodHint(script: Pick<CheckScript, 'path'>): string {
  return `chmod +x '${script.path.replace(/'/g, `'\\''`)}'`;
}
