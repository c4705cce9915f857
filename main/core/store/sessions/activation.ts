import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeError, isKiokuError } from '../../../../common/errors.js';
import type { HookEvent } from '../../../../common/hook-events.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { expandHome } from '../../platform/config/paths.js';
import { roleFilesExist } from '../roles/role-repository.js';
import { resolveSessionRole, type SessionRole } from './session-role.js';

/**
 * Whether Kioku acts for a session at all (HOOK-4, seed 000 §環境變數): ROLE_ENABLED=0 off,
 * 1 forced on, unset → on only when a role resolves and its files exist ("沒建過角色的人零影響");
 * ROLE_SCOPE limits it to sessions whose cwd lies under one of its prefixes; no role home → off.
 * The first three are "hard switches" (GateOffReason): they turn off every hook, calls included.
 */
export type GateOffReason = 'disabled' | 'no-role-home' | 'out-of-scope';
export type ActivationOffReason = GateOffReason | 'no-role' | 'role-missing' | 'invalid-role';

export type Activation =
  | { on: true; role: SessionRole | undefined; problem?: string }
  | { on: false; reason: ActivationOffReason; role?: SessionRole; problem?: string };

export function roleHomeExists(config: KiokuConfig): boolean {
  try {
    return fs.statSync(config.paths.roleHome).isDirectory();
  } catch {
    return false;
  }
}

const caseInsensitivePaths = process.platform === 'win32';

function comparable(p: string): string {
  const resolved = path.resolve(p);
  return caseInsensitivePaths ? resolved.toLowerCase() : resolved;
}

/** `dir` is `prefix` or below it; `/a/b` is not inside `/a/bc` (compared by segments, not text). */
export function isPathInside(dir: string, prefix: string): boolean {
  const rel = path.relative(comparable(prefix), comparable(dir));
  // `..x` is a folder named "..x" inside the prefix; only `..` as a whole segment leaves it.
  return rel === '' || (!/^\.\.($|[\\/])/.test(rel) && !path.isAbsolute(rel));
}

function realOrSame(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * The ROLE_SCOPE prefixes: colon-separated as in seed 000 (`;` on Windows, where `:` is part of
 * a drive letter), `~` expanded, empty entries dropped. Undefined means no scope: every session.
 */
export function scopePrefixes(config: KiokuConfig): string[] | undefined {
  const raw = config.settings.ROLE_SCOPE?.trim();
  if (!raw) return undefined;
  const home = config.env.HOME || os.homedir();
  const prefixes = raw
    .split(path.delimiter)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => path.resolve(expandHome(entry, home)));
  return prefixes.length > 0 ? prefixes : undefined;
}

/**
 * True when the session's cwd is inside ROLE_SCOPE (or there is no scope). Plain resolved paths
 * first, which costs no IO; only when that fails are symlinks resolved on both sides (macOS's
 * /tmp → /private/tmp, a project reached through a link), so a scope written either way matches.
 */
export function isInScope(config: KiokuConfig, cwd: string | undefined): boolean {
  const prefixes = scopePrefixes(config);
  if (!prefixes) return true;
  const dir = cwd?.trim() ? cwd : process.cwd();
  if (prefixes.some((prefix) => isPathInside(dir, prefix))) return true;
  const realDir = realOrSame(dir);
  return prefixes.some((prefix) => isPathInside(realDir, realOrSame(prefix)));
}

/** The hard switches shared by every hook, calls included: ROLE_ENABLED=0, no role home, scope. */
export function activationGate(config: KiokuConfig, event: Pick<HookEvent, 'cwd'>): GateOffReason | undefined {
  if (config.settings.ROLE_ENABLED === false) return 'disabled';
  if (!isInScope(config, event.cwd)) return 'out-of-scope';
  if (!roleHomeExists(config)) return 'no-role-home';
  return undefined;
}

export function activation(config: KiokuConfig, event: Pick<HookEvent, 'cwd' | 'sessionId' | 'transcriptPath'>): Activation {
  const blocked = activationGate(config, event);
  if (blocked) return { on: false, reason: blocked };
  const forced = config.settings.ROLE_ENABLED === true;
  let role: SessionRole | undefined;
  try {
    role = resolveSessionRole(config, event);
  } catch (error) {
    if (!isKiokuError(error)) throw error;
    // A broken ROLE_NAME/.active: forced on still runs (nothing to load), otherwise off; the
    // message travels with the answer so the hook can put it on stderr (HOOK-2).
    const problem = describeError(error);
    return forced ? { on: true, role: undefined, problem } : { on: false, reason: 'invalid-role', problem };
  }
  if (forced) return { on: true, role };
  if (!role) return { on: false, reason: 'no-role' };
  if (!roleFilesExist(config.paths.roleHome, role.id)) return { on: false, reason: 'role-missing', role };
  return { on: true, role };
}
