import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { KiokuError } from '../../../../common/errors.js';
import { formatCompactDateTime, formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { createFileExclusiveSync } from '../../platform/fs/atomic-write.js';
import { readLockInfo, tryAcquireLock, type FileLock } from '../../platform/fs/file-lock.js';
import { memoryLockFile, roleMemoryDir } from '../memory/memory-layout.js';
import { applyQueuedReplays } from '../index/replay-queue.js';
import { roleAssetFiles } from './role-archive.js';
import { EXPORT_FORMAT, EXPORT_MANIFEST_NAME, isLeftBehindName, type ExportManifest } from './role-export-manifest.js';
import { roleFilePaths, roleFilesExist } from './role-repository.js';

interface ExportTarget {
  archive: string;
  /** True when Kioku chose the file name (folder target): a taken name gets `-2`, `-3`… instead. */
  named: boolean;
}

/**
 * Where an export goes (ROLE-9): an existing folder or a path ending in `/`
 * gets `<ID>-role-export-<yyyyMMdd-HHmmss>.tar.gz`; a `.tar.gz`/`.tgz` path is used as is.
 */
function exportTargetOf(target: string, id: string, now: Date): ExportTarget {
  const resolved = path.resolve(target);
  const endsWithSlash = /[/\\]$/.test(target);
  if (endsWithSlash || (fs.existsSync(resolved) && fs.statSync(resolved).isDirectory())) {
    return { archive: path.join(resolved, `${id}-role-export-${formatCompactDateTime(now)}.tar.gz`), named: true };
  }
  if (/\.(tar\.gz|tgz)$/i.test(target)) return { archive: resolved, named: false };
  throw new KiokuError('BAD_USAGE', `export target "${target}" is neither a folder nor a .tar.gz/.tgz file name`, {
    hint: 'give an existing folder or a path ending in "/" (the file is named <ID>-role-export-<time>.tar.gz), or a path ending in .tar.gz or .tgz',
  });
}

export function resolveExportTarget(target: string, id: string, now: Date): string {
  return exportTargetOf(target, id, now).archive;
}

/** `file` with symlinks resolved as far as it exists, so a link into a home is seen as inside it. */
function realPathAsFarAsItExists(file: string): string {
  const rest: string[] = [];
  let current = file;
  while (!fs.existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) return file;
    rest.unshift(path.basename(current));
    current = parent;
  }
  return path.join(fs.realpathSync(current), ...rest);
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * An archive written into a home would become part of what it backs up: inside a memory folder
 * it is one more (unreadable) file of that role, exported again next time; in the role home it
 * sits among the role files and is archived/moved with them. Backups go elsewhere.
 */
function refuseTargetInHomes(config: KiokuConfig, archive: string): void {
  const real = realPathAsFarAsItExists(archive);
  for (const [name, home] of [
    ['ROLE_HOME', config.paths.roleHome],
    ['ROLE_MEMORY_HOME', config.paths.memoryHome],
  ] as const) {
    if (isInside(archive, home) || isInside(real, realPathAsFarAsItExists(home))) {
      throw new KiokuError(
        'BAD_USAGE',
        `export target ${archive} is inside ${name} (${home}); an export never writes into the role or memory folders`,
        {
          path: archive,
          hint: 'export to a folder outside both homes, e.g. `kioku role export <ID> ~/role-backups/`',
        },
      );
    }
  }
}

interface ExportEntry {
  /** Path inside the archive (POSIX). */
  archivePath: string;
  source: string;
  kind: 'file' | 'dir';
}

/** Regular files and folders below `dir`; anything else (symlinks, sockets) is reported, not followed. */
function walk(dir: string, archiveDir: string, entries: ExportEntry[], skipped: string[], skip: (name: string) => boolean): void {
  entries.push({ archivePath: archiveDir, source: dir, kind: 'dir' });
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (skip(entry.name)) continue;
    const source = path.join(dir, entry.name);
    const archivePath = `${archiveDir}/${entry.name}`;
    if (entry.isDirectory()) walk(source, archivePath, entries, skipped, skip);
    else if (entry.isFile()) entries.push({ archivePath, source, kind: 'file' });
    else skipped.push(source);
  }
}

function collectEntries(config: KiokuConfig, id: string): { entries: ExportEntry[]; skipped: string[] } {
  const files = roleFilePaths(config.paths.roleHome, id);
  const entries: ExportEntry[] = [];
  const skipped: string[] = [];
  for (const file of [files.identity, files.soul, files.legacy, ...roleAssetFiles(config.paths.assetsDir, id)]) {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!stat) continue;
    if (!stat.isFile()) skipped.push(file);
    else
      entries.push({
        archivePath: `roles/${path.relative(config.paths.roleHome, file).split(path.sep).join('/')}`,
        source: file,
        kind: 'file',
      });
  }
  if (fs.lstatSync(files.checksDir, { throwIfNoEntry: false })?.isDirectory()) {
    walk(files.checksDir, `roles/${id}.checks`, entries, skipped, isLeftBehindName);
  }
  const memoryDir = roleMemoryDir(config.paths.memoryHome, id);
  if (fs.lstatSync(memoryDir, { throwIfNoEntry: false })?.isDirectory())
    walk(memoryDir, `memory/${id}`, entries, skipped, isLeftBehindName);
  return { entries, skipped };
}

export interface ExportResult {
  archive: string;
  manifest: ExportManifest;
  /** Things that are not regular files or folders (symlinks…), left out and named here. */
  skipped: string[];
}

/**
 * How long an export waits for the memory lock. Writes that rewrite a memory file hold it for
 * milliseconds; a consolidation holds it for minutes, so waiting longer than this would only
 * make the command look hung.
 */
const MEMORY_LOCK_WAIT_MS = 2_000;

/**
 * Take the role's memory lock for the time the memory folder is read. A consolidation rewrites
 * and moves many files under this lock; an export taken in the middle would carry half of it
 * (a memory both in inbox/ and in its category, or in neither), so we refuse instead.
 * No memory folder: nothing to lock, and taking the lock would create the folder.
 */
function lockMemoryForExport(config: KiokuConfig, id: string): FileLock | undefined {
  const memoryDir = roleMemoryDir(config.paths.memoryHome, id);
  if (!fs.lstatSync(memoryDir, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  const file = memoryLockFile(config.paths.memoryHome, id);
  const lock = tryAcquireLock(file, { purpose: 'role export', waitMs: MEMORY_LOCK_WAIT_MS });
  if (!lock) {
    const holder = readLockInfo(file);
    throw new KiokuError(
      'LOCKED',
      `role ${id} is consolidating; try again in a minute (its memory folder is locked by process ${holder?.pid ?? '?'}: ${holder?.purpose ?? 'unknown'})`,
      {
        path: file,
        hint: 'an export never packs half-applied memories; run it again when the consolidation is done',
      },
    );
  }
  return lock;
}

/** Copy the entries into `staging` and describe every file for the manifest. */
function stageEntries(entries: ExportEntry[], staging: string): ExportManifest['files'] {
  const manifestFiles: ExportManifest['files'] = [];
  for (const entry of entries) {
    const staged = path.join(staging, ...entry.archivePath.split('/'));
    if (entry.kind === 'dir') {
      fs.mkdirSync(staged, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(staged), { recursive: true });
    const bytes = fs.readFileSync(entry.source);
    const stat = fs.statSync(entry.source);
    fs.writeFileSync(staged, bytes, { mode: stat.mode & 0o777 });
    fs.utimesSync(staged, stat.atime, stat.mtime);
    manifestFiles.push({ path: entry.archivePath, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
  }
  return manifestFiles;
}

/** Numbered names tried when Kioku picked the name; more exports than this in one second is a loop, not a user. */
const MAX_NAME_NUMBER = 99;

/**
 * Create the archive without ever replacing a file. When Kioku chose the name (folder target),
 * a second export within the same second gets `…-2.tar.gz`, `…-3.tar.gz`; a name the user typed
 * is theirs, so a taken one is refused.
 */
function writeArchive(target: ExportTarget, bytes: Buffer): string {
  const base = target.archive.replace(/\.tar\.gz$/i, '');
  for (let number = 1; number <= (target.named ? MAX_NAME_NUMBER : 1); number++) {
    const candidate = number === 1 ? target.archive : `${base}-${number}.tar.gz`;
    if (createFileExclusiveSync(candidate, bytes)) return candidate;
  }
  throw new KiokuError(
    'ALREADY_EXISTS',
    `${target.archive} ${target.named ? 'and its numbered variants exist' : 'appeared while exporting'}; it was left as it is`,
    {
      path: target.archive,
      hint: 'export again to another name',
    },
  );
}

/**
 * Write `<archive>`: the role's definition, assets, check scripts and memory folder plus a
 * manifest. The files are staged in a temp folder first (under the role's memory lock), so the
 * archive and the manifest describe the same bytes; the archive appears at once and never
 * replaces an existing file.
 */
export function exportRole(config: KiokuConfig, id: string, target: string): ExportResult {
  if (!roleFilesExist(config.paths.roleHome, id)) {
    throw new KiokuError('NOT_FOUND', `no role ${id} in ${config.paths.roleHome}`, { hint: 'list the roles with `kioku role list`' });
  }
  const now = config.clock.now();
  const exportTarget = exportTargetOf(target, id, now);
  refuseTargetInHomes(config, exportTarget.archive);
  if (!exportTarget.named && fs.existsSync(exportTarget.archive)) {
    throw new KiokuError('ALREADY_EXISTS', `${exportTarget.archive} already exists; an export never overwrites a file`, {
      path: exportTarget.archive,
      hint: 'choose another file name, or give a folder to get a time-stamped name',
    });
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-export-'));
  try {
    const staging = path.join(work, 'content');
    const lock = lockMemoryForExport(config, id);
    let collected: { entries: ExportEntry[]; skipped: string[] };
    let manifestFiles: ExportManifest['files'];
    try {
      // Recall hits still queued (replay-queue.ts) belong in the files the export packs.
      if (lock) applyQueuedReplays(config.paths.memoryHome, id, { lock });
      collected = collectEntries(config, id);
      manifestFiles = stageEntries(collected.entries, staging);
    } finally {
      lock?.release();
    }
    const manifest: ExportManifest = { format: EXPORT_FORMAT, version: 1, id, exportedAt: formatLocalIso(now), files: manifestFiles };
    fs.writeFileSync(path.join(staging, EXPORT_MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
    const tops = [EXPORT_MANIFEST_NAME, 'roles', 'memory'].filter((name) => fs.existsSync(path.join(staging, name)));
    const built = path.join(work, 'export.tar.gz');
    tar.c({ gzip: true, file: built, cwd: staging, sync: true, portable: true }, tops);
    const archive = writeArchive(exportTarget, fs.readFileSync(built));
    return { archive, manifest, skipped: collected.skipped };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
