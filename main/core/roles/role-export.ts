import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { KiokuError } from '../../../common/errors.js';
import { formatCompactDateTime, formatLocalIso } from '../config/clock.js';
import type { KiokuConfig } from '../config/config.js';
import { createFileExclusiveSync, isTempFileName } from '../fs/atomic-write.js';
import { roleMemoryDir } from '../memory/memory-layout.js';
import { roleAssetFiles } from './role-archive.js';
import { EXPORT_FORMAT, EXPORT_MANIFEST_NAME, type ExportManifest } from './role-export-manifest.js';
import { roleFilePaths, roleFilesExist } from './role-repository.js';

/**
 * Where an export goes (ROLE-9, seed 000 §--export): an existing folder or a path ending in `/`
 * gets `<ID>-role-export-<yyyyMMdd-HHmmss>.tar.gz`; a `.tar.gz`/`.tgz` path is used as is.
 */
export function resolveExportTarget(target: string, id: string, now: Date): string {
  const resolved = path.resolve(target);
  const endsWithSlash = /[/\\]$/.test(target);
  if (endsWithSlash || (fs.existsSync(resolved) && fs.statSync(resolved).isDirectory())) {
    return path.join(resolved, `${id}-role-export-${formatCompactDateTime(now)}.tar.gz`);
  }
  if (/\.(tar\.gz|tgz)$/i.test(target)) return resolved;
  throw new KiokuError('BAD_USAGE', `export target "${target}" is neither a folder nor a .tar.gz/.tgz file name`, {
    hint: 'give an existing folder or a path ending in "/" (the file is named <ID>-role-export-<time>.tar.gz), or a path ending in .tar.gz or .tgz',
  });
}

/** The memory folder's own bookkeeping that must not travel: our temp files and the lock. */
function isMemoryBookkeeping(name: string): boolean {
  return isTempFileName(name) || name.startsWith('.memory.lock');
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
    else entries.push({ archivePath: `roles/${path.relative(config.paths.roleHome, file).split(path.sep).join('/')}`, source: file, kind: 'file' });
  }
  if (fs.lstatSync(files.checksDir, { throwIfNoEntry: false })?.isDirectory()) {
    walk(files.checksDir, `roles/${id}.checks`, entries, skipped, isTempFileName);
  }
  const memoryDir = roleMemoryDir(config.paths.memoryHome, id);
  if (fs.lstatSync(memoryDir, { throwIfNoEntry: false })?.isDirectory()) walk(memoryDir, `memory/${id}`, entries, skipped, isMemoryBookkeeping);
  return { entries, skipped };
}

export interface ExportResult {
  archive: string;
  manifest: ExportManifest;
  /** Things that are not regular files or folders (symlinks…), left out and named here. */
  skipped: string[];
}

/**
 * Write `<archive>`: the role's definition, assets, check scripts and memory folder plus a
 * manifest. The files are staged in a temp folder first, so the archive and the manifest
 * describe the same bytes; the archive appears at once and never replaces an existing file.
 */
export function exportRole(config: KiokuConfig, id: string, target: string): ExportResult {
  if (!roleFilesExist(config.paths.roleHome, id)) {
    throw new KiokuError('NOT_FOUND', `no role ${id} in ${config.paths.roleHome}`, { hint: 'list the roles with `kioku role list`' });
  }
  const now = config.clock.now();
  const archive = resolveExportTarget(target, id, now);
  if (fs.existsSync(archive)) {
    throw new KiokuError('ALREADY_EXISTS', `${archive} already exists; an export never overwrites a file`, {
      path: archive,
      hint: 'choose another file name, or give a folder to get a time-stamped name',
    });
  }
  const { entries, skipped } = collectEntries(config, id);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-export-'));
  try {
    const staging = path.join(work, 'content');
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
    const manifest: ExportManifest = { format: EXPORT_FORMAT, version: 1, id, exportedAt: formatLocalIso(now), files: manifestFiles };
    fs.writeFileSync(path.join(staging, EXPORT_MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
    const tops = [EXPORT_MANIFEST_NAME, 'roles', 'memory'].filter((name) => fs.existsSync(path.join(staging, name)));
    const built = path.join(work, 'export.tar.gz');
    tar.c({ gzip: true, file: built, cwd: staging, sync: true, portable: true }, tops);
    if (!createFileExclusiveSync(archive, fs.readFileSync(built))) {
      throw new KiokuError('ALREADY_EXISTS', `${archive} appeared while exporting; it was left as it is`, { path: archive, hint: 'export again to another name' });
    }
    return { archive, manifest, skipped };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
