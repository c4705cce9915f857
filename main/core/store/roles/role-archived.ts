import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { explainInvalidRoleId } from '../../../../common/role-id.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { roleMemoryDir } from '../memory/memory-layout.js';
import { move } from './role-archive.js';
import { readRoleDefinition, roleFilesExist } from './role-repository.js';

/**
 * Archived roles (`role delete` moved them to `<role home>/.archive/<ID>-<yyyyMMdd-HHmmss>/`, the
 * memory folder to the same name under `<memory home>/.archive/`): listed, moved back by
 * `role restore` / the roles view, or deleted for good only when the user types the role's ID.
 */

export interface ArchivedRoleEntry {
  /** The folder under `.archive/`: what names one archive (a role may be archived more than once). */
  folder: string;
  id: string;
  name: string;
  emoji: string;
  /** `yyyy-MM-ddTHH:mm:ss` local time of the archive, from the folder name. */
  archivedAt: string;
  roleArchiveDir: string;
  memoryArchiveDir: string | null;
  /** A live role with this ID exists: restoring it is refused until that one is archived or renamed. */
  idInUse: boolean;
  /** Why the archived definition cannot be read, if so (it can still be restored or deleted). */
  problem?: string;
}

const FOLDER = /^([A-Z][A-Z0-9]{0,15}[0-9]{2})-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(?:-\d{1,4})?$/;

function roleArchiveRoot(config: KiokuConfig): string {
  return path.join(config.paths.roleHome, '.archive');
}

function memoryArchiveRoot(config: KiokuConfig): string {
  return path.join(config.paths.memoryHome, '.archive');
}

function entryOf(config: KiokuConfig, folder: string): ArchivedRoleEntry | undefined {
  const match = FOLDER.exec(folder);
  if (!match || explainInvalidRoleId(match[1]!)) return undefined;
  const id = match[1]!;
  const roleArchiveDir = path.join(roleArchiveRoot(config), folder);
  if (!fs.statSync(roleArchiveDir, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  const memoryDir = path.join(memoryArchiveRoot(config), folder);
  const entry: ArchivedRoleEntry = {
    folder,
    id,
    name: id,
    emoji: '',
    archivedAt: `${match[2]}-${match[3]}-${match[4]}T${match[5]}:${match[6]}:${match[7]}`,
    roleArchiveDir,
    memoryArchiveDir: fs.existsSync(memoryDir) ? memoryDir : null,
    idInUse: roleFilesExist(config.paths.roleHome, id),
  };
  try {
    const role = readRoleDefinition(roleArchiveDir, id);
    entry.name = role.name;
    entry.emoji = role.emoji;
  } catch (error) {
    entry.problem = (error as Error).message;
  }
  return entry;
}

/** Every archived role, newest archive first. */
export function listArchivedRoles(config: KiokuConfig): ArchivedRoleEntry[] {
  let names: string[];
  try {
    names = fs.readdirSync(roleArchiveRoot(config));
  } catch {
    return [];
  }
  return names
    .map((name) => entryOf(config, name))
    .filter((entry): entry is ArchivedRoleEntry => entry !== undefined)
    .sort((a, b) => (a.archivedAt === b.archivedAt ? b.folder.localeCompare(a.folder) : b.archivedAt.localeCompare(a.archivedAt)));
}

/** One archive, by its folder name, or the newest archive of a role ID. */
export function findArchivedRole(config: KiokuConfig, folderOrId: string): ArchivedRoleEntry {
  const all = listArchivedRoles(config);
  const found = all.find((entry) => entry.folder === folderOrId) ?? all.find((entry) => entry.id === folderOrId);
  if (!found) {
    throw new KiokuError('NOT_FOUND', `no archived role ${folderOrId} in ${roleArchiveRoot(config)}`, {
      hint: 'archived roles are listed by `kioku role archived`',
      reason: 'archive.notFound',
      reasonValues: { id: folderOrId },
    });
  }
  return found;
}

/** Where each archived file goes back to; `.assets/emojis/*` to the role home's assets. */
function restorePlan(config: KiokuConfig, entry: ArchivedRoleEntry): { from: string; to: string }[] {
  const steps: { from: string; to: string }[] = [];
  for (const name of fs.readdirSync(entry.roleArchiveDir)) {
    if (name === '.assets') continue;
    steps.push({ from: path.join(entry.roleArchiveDir, name), to: path.join(config.paths.roleHome, name) });
  }
  const emojis = path.join(entry.roleArchiveDir, '.assets', 'emojis');
  if (fs.existsSync(emojis)) {
    for (const name of fs.readdirSync(emojis))
      steps.push({ from: path.join(emojis, name), to: path.join(config.paths.assetsDir, 'emojis', name) });
  }
  if (entry.memoryArchiveDir) steps.push({ from: entry.memoryArchiveDir, to: roleMemoryDir(config.paths.memoryHome, entry.id) });
  return steps;
}

export interface RestoredRole {
  id: string;
  name: string;
  moved: { from: string; to: string }[];
}

/**
 * `role restore`: move an archive back where `role delete` took it from. Refused, with nothing
 * moved, when a role with that ID exists or any target is taken; the archive folder is removed
 * once empty.
 */
export function restoreArchivedRole(config: KiokuConfig, folderOrId: string): RestoredRole {
  const entry = findArchivedRole(config, folderOrId);
  if (entry.idInUse) {
    throw new KiokuError('ALREADY_EXISTS', `a role ${entry.id} exists in ${config.paths.roleHome}; the archived one was not restored`, {
      hint: `archive the current ${entry.id} first (\`kioku role delete ${entry.id}\`), then restore`,
      reason: 'archive.roleExists',
      reasonValues: { id: entry.id },
    });
  }
  const steps = restorePlan(config, entry);
  const taken = steps.filter((step) => fs.existsSync(step.to));
  if (taken.length) {
    throw new KiokuError(
      'ALREADY_EXISTS',
      `restoring ${entry.folder} would overwrite ${taken.map((step) => step.to).join(', ')}; nothing was moved`,
      {
        hint: 'move those files aside, then restore again',
        reason: 'archive.roleExists',
        reasonValues: { id: entry.id },
      },
    );
  }
  const moved: RestoredRole['moved'] = [];
  try {
    for (const step of steps) {
      move(step.from, step.to);
      moved.push(step);
    }
  } catch (error) {
    const done = moved.map((step) => `${step.from} → ${step.to}`).join('; ') || 'nothing';
    throw new KiokuError('IO', `restoring role ${entry.id} stopped: ${(error as Error).message} (already moved: ${done})`, {
      hint: 'fix the cause, then run `kioku role restore` again',
      cause: error,
    });
  }
  fs.rmSync(path.join(entry.roleArchiveDir, '.assets'), { recursive: true, force: true });
  try {
    fs.rmdirSync(entry.roleArchiveDir);
  } catch {
    /* something unexpected was left in it: kept, never deleted unasked */
  }
  return { id: entry.id, name: entry.name, moved };
}

/**
 * Delete an archive for good: its role files, assets and memory folder. `typedId` is what the
 * user typed to confirm; it must be the role's ID exactly, or nothing is deleted.
 */
export function purgeArchivedRole(config: KiokuConfig, folder: string, typedId: string): { id: string; removed: string[] } {
  const entry = findArchivedRole(config, folder);
  if (entry.folder !== folder)
    throw new KiokuError('NOT_FOUND', `no archive folder ${folder}`, { reason: 'archive.notFound', reasonValues: { id: folder } });
  if (typedId.trim() !== entry.id) {
    throw new KiokuError('REFUSED', `the typed ID "${typedId}" is not ${entry.id}; nothing was deleted`, {
      reason: 'archive.confirmMismatch',
      field: 'confirmId',
    });
  }
  const removed = [entry.roleArchiveDir, ...(entry.memoryArchiveDir ? [entry.memoryArchiveDir] : [])];
  for (const dir of removed) fs.rmSync(dir, { recursive: true, force: true });
  return { id: entry.id, removed };
}
