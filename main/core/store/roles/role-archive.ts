import fs from 'node:fs';
import path from 'node:path';
import { preparedFilesOf } from '../../platform/config/prepared-paths.js';
import { KiokuError } from '../../../../common/errors.js';
import { formatCompactDateTime } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { tryAcquireLock } from '../../platform/fs/file-lock.js';
import { memoryLockFile, roleMemoryDir } from '../memory/memory-layout.js';
import { applyQueuedReplays, replayQueueFile } from '../index/replay-queue.js';
import { readActiveRoleId } from './role-active.js';
import { roleFilePaths, roleFilesExist } from './role-repository.js';

/** Emoji assets of a role: `.assets/emojis/<id in lowercase>-*` (ROLE-10). */
export function roleAssetFiles(assetsDir: string, id: string): string[] {
  const dir = path.join(assetsDir, 'emojis');
  const prefix = `${id.toLowerCase()}-`;
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => name.startsWith(prefix))
      .sort()
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** Move a file or folder; across devices, copy then remove (rename cannot cross them). */
export function move(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    fs.cpSync(from, to, { recursive: true, preserveTimestamps: true, errorOnExist: true, force: false });
    fs.rmSync(from, { recursive: true });
  }
}

/** A fresh `<ID>-<yyyyMMdd-HHmmss>` folder name under `.archive/` (a suffix when two runs share a second). */
function freshArchiveDir(home: string, id: string, stamp: string): string {
  const base = path.join(home, '.archive', `${id}-${stamp}`);
  let candidate = base;
  for (let n = 2; fs.existsSync(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

export interface ArchivedRole {
  id: string;
  /** Each thing moved, from where to where. */
  moved: { from: string; to: string }[];
  roleArchiveDir: string;
  memoryArchiveDir: string | undefined;
}

/**
 * `role delete`: archive, never destroy (ROLE-8, FORGET-3). The role files, its check scripts
 * and emoji assets go to `<role home>/.archive/<ID>-<stamp>/`; its memory folder becomes
 * `<memory home>/.archive/<ID>-<stamp>/`. The active role (`.active` or ROLE_NAME) is refused.
 */
export function archiveRole(config: KiokuConfig, id: string): ArchivedRole {
  const files = roleFilePaths(config.paths.roleHome, id);
  if (!roleFilesExist(config.paths.roleHome, id)) {
    throw new KiokuError('NOT_FOUND', `no role ${id} in ${config.paths.roleHome}`, { hint: 'list the roles with `kioku role list`' });
  }
  const active = readActiveRoleId(config.paths.roleHome);
  const fromEnv = config.settings.ROLE_NAME?.trim();
  if (id === active || id === fromEnv) {
    const where = id === active ? 'the active role (.active)' : 'the role of this environment (ROLE_NAME)';
    throw new KiokuError('REFUSED', `role ${id} is ${where} and cannot be deleted`, {
      hint: id === active ? 'switch to another role first with `kioku role use <ID>`' : 'unset ROLE_NAME or point it at another role first',
    });
  }
  const memoryDir = roleMemoryDir(config.paths.memoryHome, id);
  const hasMemory = fs.existsSync(memoryDir);
  // A consolidation writing into the folder while it moves would lose its work: take the lock.
  const lock = hasMemory ? tryAcquireLock(memoryLockFile(config.paths.memoryHome, id), { purpose: 'role delete' }) : undefined;
  if (hasMemory && !lock) {
    throw new KiokuError('LOCKED', `the memories of role ${id} are being written (${memoryLockFile(config.paths.memoryHome, id)})`, {
      hint: 'wait for the consolidation to finish, then delete again',
    });
  }
  const stamp = formatCompactDateTime(config.clock.now());
  const roleArchiveDir = freshArchiveDir(config.paths.roleHome, id, stamp);
  const moved: ArchivedRole['moved'] = [];
  const moveInto = (from: string, to: string) => {
    move(from, to);
    moved.push({ from, to });
  };
  try {
    for (const file of [files.identity, files.soul, files.legacy, files.checksDir]) {
      if (fs.existsSync(file)) moveInto(file, path.join(roleArchiveDir, path.basename(file)));
    }
    for (const asset of roleAssetFiles(config.paths.assetsDir, id)) {
      moveInto(asset, path.join(roleArchiveDir, '.assets', 'emojis', path.basename(asset)));
    }
    let memoryArchiveDir: string | undefined;
    if (hasMemory) {
      // Recall hits still queued (replay-queue.ts) go into the files that are archived.
      applyQueuedReplays(config.paths.memoryHome, id, { lock: lock! });
      memoryArchiveDir = freshArchiveDir(config.paths.memoryHome, id, stamp);
      moveInto(memoryDir, memoryArchiveDir);
      // The lock file went along with the folder; it is ours and means nothing in the archive.
      fs.rmSync(path.join(memoryArchiveDir, '.memory.lock'), { force: true });
      removeDerivedLoads(config, id);
    }
    return { id, moved, roleArchiveDir, memoryArchiveDir };
  } catch (error) {
    const done = moved.map((step) => `${step.from} → ${step.to}`).join('; ') || 'nothing';
    throw new KiokuError('IO', `archiving role ${id} stopped: ${(error as Error).message} (already moved: ${done})`, {
      hint: 'fix the cause, then move the remaining files by hand or run `kioku role delete` again',
      cause: error,
    });
  } finally {
    lock?.release();
  }
}

/**
 * The role's prepared load, its stamps and parsed memories: derived copies of the memory text just archived,
 * not the user's files (the archive keeps those). Recomputed should the role come back; a copy
 * that cannot be removed is left to be ignored (its stamps no longer match anything).
 */
function removeDerivedLoads(config: KiokuConfig, id: string): void {
  const queue = replayQueueFile(config.paths.memoryHome, id);
  for (const file of [...preparedFilesOf(config.paths, id), queue, `${queue}.applying`]) {
    try {
      fs.rmSync(file, { force: true });
    } catch {
      /* derived data */
    }
  }
}
