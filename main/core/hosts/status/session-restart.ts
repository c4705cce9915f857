import fs from 'node:fs';
import path from 'node:path';
import type { KiokuConfig } from '../../platform/config/config.js';
import { roleFilePaths } from '../../store/roles/role-repository.js';
import { roleLockPath } from '../../store/sessions/role-lock-file.js';

/**
 * OPS-1 "session restarted since role creation" (seed 000 §--status 工作階段: 建立角色後是否**重開過**
 * CLI — SessionStart 只在啟動時觸發). Best effort from what sessions leave behind:
 *
 * - the role's definition time: the identity (or legacy) file's birth time where the file system
 *   keeps one, else its ctime. Kioku writes role files atomically, so an edit counts as a new
 *   definition — which is right: an edited persona also reaches only new sessions.
 * - the newest session trace: any `.sessions/` file, this role's lock file (written when a
 *   SessionStart loads the role), the newest session snapshot (written at a session's first load).
 *
 * 'unknown' when there is no trace at all (a first install, or traces cleaned up after 7 days).
 */
export interface SessionRestart {
  role: string;
  restarted: 'yes' | 'no' | 'unknown';
  roleFileTime: string | null;
  lastSessionTime: string | null;
}

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

function newestIn(dir: string): number | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  let newest: number | undefined;
  for (const name of names) {
    const stat = statOf(path.join(dir, name));
    if (stat?.isFile() && (newest === undefined || stat.mtimeMs > newest)) newest = stat.mtimeMs;
  }
  return newest;
}

export function sessionRestartedSince(config: KiokuConfig, role: string): SessionRestart {
  const files = roleFilePaths(config.paths.roleHome, role);
  const definition = statOf(files.identity) ?? statOf(files.legacy);
  const definedMs = definition ? (definition.birthtimeMs > 0 ? definition.birthtimeMs : definition.ctimeMs) : undefined;
  const traces = [newestIn(config.paths.sessionsDir), statOf(roleLockPath(config, role))?.mtimeMs, newestIn(config.paths.snapshotsDir)].filter(
    (t): t is number => t !== undefined,
  );
  const lastMs = traces.length ? Math.max(...traces) : undefined;
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  const restarted = definedMs === undefined || lastMs === undefined ? 'unknown' : lastMs >= definedMs ? 'yes' : 'no';
  return { role, restarted, roleFileTime: iso(definedMs), lastSessionTime: iso(lastMs) };
}
