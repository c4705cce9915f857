import fs from 'node:fs';
import path from 'node:path';
import type { KiokuConfig } from '../../platform/config/config.js';
import { roleFilePaths } from '../../store/roles/role-repository.js';
import { roleLockPath } from '../../store/sessions/role-lock-file.js';

/**
 * OPS-1 "session restarted since role creation" (was the assistant restarted after the role was
 * created? SessionStart only fires at start-up).
 * Design notes: docs/design-notes.md, "main/core/hosts/status/session-restart.ts".
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
  const traces = [
    newestIn(config.paths.sessionsDir),
    statOf(roleLockPath(config, role))?.mtimeMs,
    newestIn(config.paths.snapshotsDir),
  ].filter((t): t is number => t !== undefined);
  const lastMs = traces.length ? Math.max(...traces) : undefined;
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  const restarted = definedMs === undefined || lastMs === undefined ? 'unknown' : lastMs >= definedMs ? 'yes' : 'no';
  return { role, restarted, roleFileTime: iso(definedMs), lastSessionTime: iso(lastMs) };
}
