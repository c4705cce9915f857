import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { KiokuError, isKiokuError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { createFileExclusiveSync, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../platform/fs/atomic-write.js';
import { ensureRoleMemoryDirs, roleMemoryDir } from '../memory/memory-layout.js';
import { findRefusedMarkdown, identityIdMismatch } from './role-import-contents.js';
import { vetRoleArchive, type VettedEntry } from './role-import-vetting.js';
import type { RoleDefinition } from './role-definition.js';
import { EXPORT_MANIFEST_NAME, type ExportManifest } from './role-export-manifest.js';
import { readRoleDefinition, roleFilesExist } from './role-repository.js';

export interface ImportResult {
  role: RoleDefinition;
  /** Every file written into the homes. */
  written: string[];
  memoryDir: string;
  /**
   * The check scripts written (`<ID>.checks/**`), all without the executable bit: BRIEF-1 runs
   * executable scripts there unattended every morning, so a script from someone else's archive
   * runs only after the user has read it and made it executable.
   */
  checkScripts: string[];
  /** Archive paths of lock and temp files that were not imported. */
  skipped: string[];
  /** What the user should know about what was imported (an identity that names another ID). */
  warnings: string[];
}

function invalid(archive: string, message: string): KiokuError {
  return new KiokuError('INVALID_ARCHIVE', `${archive}: ${message}; nothing was imported`, {
    path: archive,
    hint: 'export the role again; the archive was changed or damaged after it was made',
  });
}

/**
 * Every extracted file must have the size and SHA-256 its manifest lists. Vetting already matched
 * the file lists and the header sizes; this checks the bytes themselves.
 */
function verifyAgainstManifest(archive: string, extracted: string, manifest: ExportManifest, entries: VettedEntry[]): void {
  const listed = new Map(manifest.files.map((file) => [file.path, file]));
  const files = entries.filter((entry) => entry.kind === 'file' && entry.path !== EXPORT_MANIFEST_NAME);
  for (const entry of files) {
    const expected = listed.get(entry.path);
    if (!expected) throw invalid(archive, `"${entry.path}" is not listed in the manifest`);
    const bytes = fs.readFileSync(path.join(extracted, ...entry.path.split('/')));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (bytes.length !== expected.size || sha256 !== expected.sha256)
      throw invalid(archive, `"${entry.path}" does not match its manifest checksum`);
  }
}

/** Where an archive path lands: `roles/…` in the role home, `memory/<ID>/…` in the memory home. */
function destinationOf(config: KiokuConfig, archivePath: string): string {
  const [top, ...rest] = archivePath.split('/');
  return path.join(top === 'roles' ? config.paths.roleHome : config.paths.memoryHome, ...rest);
}

function memoryHoldsFiles(dir: string): boolean {
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (!stat) return false;
  // A file (or link) where the memory folder should be is in the way just as much.
  if (!stat.isDirectory()) return true;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).some((entry) => !entry.isDirectory());
}

/** Something already at `dest` that the entry cannot land on: any file, or a non-folder where a folder goes. */
function isInTheWay(dest: string, entry: VettedEntry): boolean {
  const stat = fs.lstatSync(dest, { throwIfNoEntry: false });
  return stat !== undefined && (entry.kind === 'file' || !stat.isDirectory());
}

function refuseExisting(config: KiokuConfig, id: string, entries: VettedEntry[]): void {
  const memoryDir = roleMemoryDir(config.paths.memoryHome, id);
  const clash = roleFilesExist(config.paths.roleHome, id)
    ? path.join(config.paths.roleHome, `${id}.*`)
    : memoryHoldsFiles(memoryDir)
      ? memoryDir
      : entries
          .filter((entry) => entry.path !== EXPORT_MANIFEST_NAME && entry.path.includes('/'))
          .map((entry) => ({ entry, dest: destinationOf(config, entry.path) }))
          .find(({ entry, dest }) => isInTheWay(dest, entry))?.dest;
  if (clash) {
    throw new KiokuError('ALREADY_EXISTS', `role ${id} already exists here (${clash}); nothing was imported`, {
      hint: `archive the existing role first with \`kioku role delete ${id}\` (switch away from it with \`kioku role use\` if it is active)`,
    });
  }
}

const isCheckScript = (id: string, archivePath: string) => archivePath.startsWith(`roles/${id}.checks/`);

/**
 * Copy the vetted files into the homes, never over an existing file; undo our own files on
 * failure. Every file is written 0600 and every folder 0700, like the files Kioku writes itself
 * (memories and roles are personal, atomic-write.ts), whatever mode the archive gave them: the
 * only executable files a role has are its check scripts, and an archive must not be able to
 * schedule code (BRIEF-1 runs executable `<ID>.checks/*.sh` each morning without asking).
 */
function writeIntoHomes(config: KiokuConfig, extracted: string, entries: VettedEntry[]): string[] {
  const written: string[] = [];
  try {
    for (const entry of entries) {
      if (entry.path === EXPORT_MANIFEST_NAME) continue;
      const dest = destinationOf(config, entry.path);
      const source = path.join(extracted, ...entry.path.split('/'));
      if (entry.kind === 'dir') {
        fs.mkdirSync(dest, { recursive: true, mode: PRIVATE_DIR_MODE });
        continue;
      }
      const stat = fs.statSync(source);
      if (!createFileExclusiveSync(dest, fs.readFileSync(source), { mode: PRIVATE_FILE_MODE })) {
        throw new KiokuError('ALREADY_EXISTS', `${dest} appeared while importing; nothing was imported`, {
          path: dest,
          hint: 'import again once nothing else writes the role',
        });
      }
      written.push(dest);
      fs.utimesSync(dest, stat.atime, stat.mtime);
    }
  } catch (error) {
    for (const file of written) fs.rmSync(file, { force: true });
    throw error;
  }
  return written;
}

/**
 * `role import <archive>` (X-IMPORT): vet every entry, extract into a fresh temp folder, check
 * the manifest checksums and the role definition, refuse an existing role, and only then copy
 * the files into the homes. Anything refused leaves both homes exactly as they were.
 */
export function importRole(config: KiokuConfig, archivePath: string): ImportResult {
  const archive = path.resolve(archivePath);
  const { manifest, entries, skipped } = vetRoleArchive(archive);
  const id = manifest.id;
  refuseExisting(config, id, entries);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-import-'));
  try {
    const allowed = new Set(entries.map((entry) => entry.path));
    tar.x({
      file: archive,
      cwd: work,
      sync: true,
      strict: true,
      preserveOwner: false,
      // vetRoleArchive already refused anything else; this keeps extraction to the vetted list.
      filter: (entryPath) =>
        allowed.has(
          entryPath
            .split('/')
            .filter((s) => s !== '' && s !== '.')
            .join('/'),
        ),
    });
    verifyAgainstManifest(archive, work, manifest, entries);
    const refused = findRefusedMarkdown(work, entries);
    if (refused) throw invalid(archive, `"${refused.path}" cannot be loaded: ${refused.message}`);
    const warnings = [identityIdMismatch(work, manifest)].filter((warning): warning is string => warning !== undefined);
    let role: RoleDefinition;
    try {
      role = readRoleDefinition(path.join(work, 'roles'), id);
    } catch (error) {
      if (!isKiokuError(error)) throw error;
      throw invalid(archive, `its role definition cannot be read (${error.message.replaceAll(work, '<archive>')})`);
    }
    const written = writeIntoHomes(config, work, entries);
    const memoryDir = ensureRoleMemoryDirs(config.paths.memoryHome, id);
    const checkScripts = entries
      .filter((entry) => entry.kind === 'file' && isCheckScript(id, entry.path))
      .map((entry) => destinationOf(config, entry.path));
    const files = role.files.map((file) => path.join(config.paths.roleHome, path.basename(file)));
    return { role: { ...role, files }, written, memoryDir, checkScripts, skipped, warnings };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
