import fs from 'node:fs';
import * as tar from 'tar';
import { KiokuError } from '../../../common/errors.js';
import { explainInvalidRoleId } from '../../../common/role-id.js';
import {
  EXPORT_MANIFEST_NAME,
  exportManifestSchema,
  isExportPathOfRole,
  safeEntrySegments,
  type ExportManifest,
} from './role-export-manifest.js';

/**
 * Reads and vets a role export before anything is extracted (ROLE-9, X-IMPORT). One bad entry
 * refuses the whole archive, naming the entry: partial imports of a hostile or damaged archive
 * are worse than none.
 */
export interface VettedEntry {
  /** Normalised POSIX path inside the archive (no `./`, no trailing `/`). */
  path: string;
  kind: 'file' | 'dir';
}

export interface VettedArchive {
  manifest: ExportManifest;
  entries: VettedEntry[];
}

const FILE_TYPES = new Set(['File', 'OldFile']);

function refuse(archive: string, message: string, hint = 'only import archives made by `kioku role export`'): KiokuError {
  return new KiokuError('INVALID_ARCHIVE', `${archive}: ${message}; nothing was imported`, { path: archive, hint });
}

function checkGzip(archive: string): void {
  if (!fs.statSync(archive, { throwIfNoEntry: false })?.isFile()) {
    throw new KiokuError('NOT_FOUND', `${archive} is not a file`, { path: archive, hint: 'give the path of a .tar.gz made by `kioku role export`' });
  }
  const magic = Buffer.alloc(2);
  const fd = fs.openSync(archive, 'r');
  try {
    fs.readSync(fd, magic, 0, 2, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) throw refuse(archive, 'not a gzip file (a role export is a .tar.gz)');
}

interface RawEntry {
  path: string;
  type: string;
}

function listEntries(archive: string): { raw: RawEntry[]; manifestText: string | undefined } {
  const raw: RawEntry[] = [];
  const manifestChunks: Buffer[] = [];
  try {
    tar.t({
      file: archive,
      sync: true,
      strict: true,
      onReadEntry: (entry) => {
        raw.push({ path: entry.path, type: entry.type });
        if (entry.path === EXPORT_MANIFEST_NAME && FILE_TYPES.has(entry.type)) entry.on('data', (chunk: Buffer) => manifestChunks.push(chunk));
      },
    });
  } catch (error) {
    throw refuse(archive, `corrupt or truncated archive (${(error as Error).message})`, 'export the role again; the file may be damaged or incomplete');
  }
  return { raw, manifestText: manifestChunks.length > 0 ? Buffer.concat(manifestChunks).toString('utf8') : undefined };
}

function parseManifest(archive: string, text: string | undefined): ExportManifest {
  if (text === undefined) throw refuse(archive, `no ${EXPORT_MANIFEST_NAME} manifest`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw refuse(archive, `${EXPORT_MANIFEST_NAME} is not valid JSON (${(error as Error).message})`);
  }
  const parsed = exportManifestSchema.safeParse(json);
  if (!parsed.success) throw refuse(archive, `${EXPORT_MANIFEST_NAME} is not a Kioku role export manifest (${parsed.error.issues[0]?.message ?? 'bad shape'})`);
  const idProblem = explainInvalidRoleId(parsed.data.id);
  if (idProblem) throw refuse(archive, `the manifest names an invalid role: ${idProblem}`);
  return parsed.data;
}

/**
 * List the archive, check every entry (only regular files and folders; no absolute path, no
 * `..`, nothing outside `roles/<this role's files>`, `memory/<ID>/` or the manifest; no
 * duplicates) and read its manifest. Extracts nothing.
 */
export function vetRoleArchive(archive: string): VettedArchive {
  checkGzip(archive);
  const { raw, manifestText } = listEntries(archive);
  for (const entry of raw) {
    if (!FILE_TYPES.has(entry.type) && entry.type !== 'Directory') {
      throw refuse(archive, `entry "${entry.path}" is a ${entry.type}; only regular files and folders are accepted`);
    }
    if (!safeEntrySegments(entry.path)) throw refuse(archive, `entry "${entry.path}" has an absolute path or a ".." segment`);
  }
  const manifest = parseManifest(archive, manifestText);
  const entries: VettedEntry[] = [];
  const seen = new Set<string>();
  for (const entry of raw) {
    const segments = safeEntrySegments(entry.path)!;
    const kind = entry.type === 'Directory' ? 'dir' : 'file';
    const normalised = segments.join('/');
    if (!isExportPathOfRole(segments, manifest.id, kind === 'dir')) {
      throw refuse(archive, `entry "${entry.path}" is outside what an export of role ${manifest.id} holds`);
    }
    if (seen.has(normalised)) throw refuse(archive, `entry "${entry.path}" appears twice`);
    seen.add(normalised);
    entries.push({ path: normalised, kind });
  }
  return { manifest, entries };
}
