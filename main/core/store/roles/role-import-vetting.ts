import fs from 'node:fs';
import * as tar from 'tar';
import { KiokuError, isKiokuError } from '../../../../common/errors.js';
import { explainInvalidRoleId } from '../../../../common/role-id.js';
import {
  EXPORT_MANIFEST_NAME,
  exportManifestSchema,
  isExportPathOfRole,
  isLeftBehindPath,
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
  /** The manifest, its file list without the skipped entries. */
  manifest: ExportManifest;
  entries: VettedEntry[];
  /** Lock and temp files the archive carried; they are not imported (isLeftBehindName). */
  skipped: string[];
}

const FILE_TYPES = new Set(['File', 'OldFile']);

function refuse(archive: string, message: string, hint = 'only import archives made by `kioku role export`'): KiokuError {
  return new KiokuError('INVALID_ARCHIVE', `${archive}: ${message}; nothing was imported`, { path: archive, hint });
}

function checkGzip(archive: string): void {
  if (!fs.statSync(archive, { throwIfNoEntry: false })?.isFile()) {
    throw new KiokuError('NOT_FOUND', `${archive} is not a file`, {
      path: archive,
      hint: 'give the path of a .tar.gz made by `kioku role export`',
    });
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
  /** The size its header declares (what extracting it would write). */
  size: number;
}

/**
 * The most an archive's entries may add up to (their header sizes). An honest export is
 * Markdown memories plus an emoji sheet: megabytes. Import extracts into a temp folder and then
 * reads every file whole to check its SHA-256, so without a cap a gzip bomb (2 GiB of zeros
 * packs into 2 MB) would fill the temp disk before any check refused it. 2 GiB is far above any
 * real role and is also where `fs.readFileSync` stops (ERR_FS_FILE_TOO_LARGE): a bigger file
 * could not be verified anyway.
 */
export const MAX_IMPORT_BYTES = 2 * 1024 ** 3;

/** The manifest is held in memory while listing; ~150 bytes per file, so this is generous. */
const MAX_MANIFEST_BYTES = 64 * 1024 ** 2;

/**
 * Read the compressed file in small slices: tar inflates each slice before the next header is
 * seen, so with the default 16 MB slice a bomb is fully inflated before its header can be
 * refused; 64 KiB inflates to at most a few dozen MB.
 */
const READ_SLICE_BYTES = 64 * 1024;

function tooBig(archive: string, entry: RawEntry, total: number): KiokuError {
  const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  return new KiokuError(
    'LIMIT_EXCEEDED',
    `${archive}: its files add up to more than ${gib(MAX_IMPORT_BYTES)} (${gib(total)} once "${entry.path}" is counted); no role export is that big, so nothing was imported`,
    { path: archive, hint: 'a role export is normally a few megabytes; only import archives made by `kioku role export`' },
  );
}

const bytes = (count: number) => `${count} byte${count === 1 ? '' : 's'}`;

function sizeMismatch(archive: string, entryPath: string, size: number, listed: number): KiokuError {
  return refuse(
    archive,
    `"${entryPath}" is ${bytes(size)} in the archive but ${bytes(listed)} in its manifest (the archive was changed after it was made)`,
    'export the role again from the original home; an archive whose files disagree with its manifest is never imported',
  );
}

/** File sizes by path from a manifest text, or undefined when it does not parse (reported later). */
function listedSizes(text: string): Map<string, number> | undefined {
  try {
    const parsed = exportManifestSchema.safeParse(JSON.parse(text));
    return parsed.success ? new Map(parsed.data.files.map((file) => [file.path, file.size])) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * List the archive without extracting it. Sizes are checked as each header arrives, so a
 * hostile archive is refused before its body is inflated: the running total against
 * MAX_IMPORT_BYTES, and (once the manifest, which an export writes first, has been read) each
 * file's size against the manifest. Everything else is checked after listing.
 */
function listEntries(archive: string): { raw: RawEntry[]; manifestText: string | undefined } {
  const raw: RawEntry[] = [];
  const manifestChunks: Buffer[] = [];
  let sizes: Map<string, number> | undefined;
  let sizesRead = false;
  let total = 0;
  const onHeader = (entry: RawEntry) => {
    total += entry.size;
    if (total > MAX_IMPORT_BYTES) throw tooBig(archive, entry, total);
    if (!sizesRead && manifestChunks.length > 0) {
      sizesRead = true;
      sizes = listedSizes(Buffer.concat(manifestChunks).toString('utf8'));
    }
    const normalised = safeEntrySegments(entry.path)?.join('/');
    const listed = normalised === undefined ? undefined : sizes?.get(normalised);
    if (FILE_TYPES.has(entry.type) && listed !== undefined && listed !== entry.size)
      throw sizeMismatch(archive, entry.path, entry.size, listed);
  };
  try {
    tar.t({
      file: archive,
      sync: true,
      strict: true,
      maxReadSize: READ_SLICE_BYTES,
      onReadEntry: (entry) => {
        const current = { path: entry.path, type: entry.type, size: entry.size ?? 0 };
        raw.push(current);
        onHeader(current);
        if (entry.path === EXPORT_MANIFEST_NAME && FILE_TYPES.has(entry.type)) {
          if (current.size > MAX_MANIFEST_BYTES)
            throw refuse(archive, `its ${EXPORT_MANIFEST_NAME} is ${current.size} bytes, far more than a role export manifest`);
          entry.on('data', (chunk: Buffer) => manifestChunks.push(chunk));
        }
      },
    });
  } catch (error) {
    if (isKiokuError(error)) throw error;
    throw refuse(
      archive,
      `corrupt or truncated archive (${(error as Error).message})`,
      'export the role again; the file may be damaged or incomplete',
    );
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
  if (!parsed.success)
    throw refuse(
      archive,
      `${EXPORT_MANIFEST_NAME} is not a Kioku role export manifest (${parsed.error.issues[0]?.message ?? 'bad shape'})`,
    );
  const idProblem = explainInvalidRoleId(parsed.data.id);
  if (idProblem) throw refuse(archive, `the manifest names an invalid role: ${idProblem}`);
  return parsed.data;
}

/**
 * A file entry at `a/b` and any entry below `a/b/` cannot both land: extraction fails half-way
 * (ENOTDIR). Refuse it here, naming both entries.
 */
function refuseFileUsedAsFolder(archive: string, entries: VettedEntry[]): void {
  const files = new Set(entries.filter((entry) => entry.kind === 'file').map((entry) => entry.path));
  for (const entry of entries) {
    const segments = entry.path.split('/');
    for (let length = 1; length < segments.length; length++) {
      const parent = segments.slice(0, length).join('/');
      if (files.has(parent))
        throw refuse(archive, `entry "${parent}" is a file, but entry "${entry.path}" puts something inside it as if it were a folder`);
    }
  }
}

const isLeftBehind = (archivePath: string) => isLeftBehindPath(archivePath.split('/'));

/**
 * Every file entry must be in the manifest with the size its header declares, and every
 * manifest file must be in the archive. Checked before extraction; the SHA-256 is checked on the
 * extracted bytes (role-import.ts). Lock and temp files are never extracted, so whether the
 * manifest lists them does not matter.
 */
function refuseManifestDisagreement(archive: string, manifest: ExportManifest, raw: RawEntry[]): void {
  const listed = new Map(manifest.files.map((file) => [file.path, file]));
  for (const entry of raw) {
    const normalised = safeEntrySegments(entry.path)!.join('/');
    if (!FILE_TYPES.has(entry.type) || normalised === EXPORT_MANIFEST_NAME || isLeftBehind(normalised)) continue;
    const expected = listed.get(normalised);
    if (!expected)
      throw refuse(
        archive,
        `"${entry.path}" is not listed in the manifest`,
        'export the role again; the archive was changed or damaged after it was made',
      );
    if (expected.size !== entry.size) throw sizeMismatch(archive, entry.path, entry.size, expected.size);
  }
  const held = new Set(raw.map((entry) => safeEntrySegments(entry.path)!.join('/')));
  const missing = manifest.files.map((file) => file.path).filter((file) => !held.has(file) && !isLeftBehind(file));
  if (missing.length > 0) {
    throw refuse(
      archive,
      `the manifest lists files the archive does not hold: ${missing.join(', ')}`,
      'export the role again; the archive was changed or damaged after it was made',
    );
  }
}

/**
 * List the archive, check every entry (only regular files and folders; no absolute path, no
 * `..`, nothing outside `roles/<this role's files>`, `memory/<ID>/` or the manifest; no
 * duplicates; no file that is also a folder; sizes within MAX_IMPORT_BYTES and as the manifest
 * says) and read its manifest. Extracts nothing. Lock and temp files pass the checks but are
 * dropped from the result (and from the manifest's list): they are another home's bookkeeping.
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
  refuseFileUsedAsFolder(archive, entries);
  refuseManifestDisagreement(archive, manifest, raw);
  return {
    manifest: { ...manifest, files: manifest.files.filter((file) => !isLeftBehind(file.path)) },
    entries: entries.filter((entry) => !isLeftBehind(entry.path)),
    skipped: entries.filter((entry) => entry.kind === 'file' && isLeftBehind(entry.path)).map((entry) => entry.path),
  };
}
