import { z } from 'zod';
import { isTempFileName } from '../../platform/fs/atomic-write.js';

/**
 * The manifest at the root of a role export (ROLE-9, X-IMPORT): which role, when, and every
 * file with its SHA-256 and size, so an import can prove the archive arrived whole.
 * Archive layout: `kioku-export.json`, `roles/<ID>.*` (+ `roles/<ID>.checks/**`,
 * `roles/.assets/emojis/<id>-*`), `memory/<ID>/**`.
 */
export const EXPORT_MANIFEST_NAME = 'kioku-export.json';
export const EXPORT_FORMAT = 'kioku-role-export';

export const exportManifestSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(1),
  id: z.string(),
  exportedAt: z.string(),
  files: z.array(
    z.object({
      path: z.string(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      size: z.number().int().nonnegative(),
    }),
  ),
});

export type ExportManifest = z.infer<typeof exportManifestSchema>;

/** POSIX path segments of an archive entry, or undefined when it could escape the folder it lands in. */
export function safeEntrySegments(entryPath: string): string[] | undefined {
  if (entryPath.includes('\\') || entryPath.includes('\0')) return undefined;
  if (entryPath.startsWith('/') || /^[A-Za-z]:/.test(entryPath)) return undefined;
  const segments = entryPath.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0 || segments.includes('..')) return undefined;
  return segments;
}

/**
 * Whether an archive path belongs to role `id`'s export: the manifest, the role's own files,
 * its check scripts and emoji assets, and its memory folder. Directories leading to those are
 * allowed too. Everything else is refused (an archive must not write outside what it exports).
 */
export function isExportPathOfRole(segments: string[], id: string, isDirectory: boolean): boolean {
  const [top, second, third] = segments;
  if (segments.length === 1) return isDirectory ? top === 'roles' || top === 'memory' : top === EXPORT_MANIFEST_NAME;
  if (top === 'memory') return second === id && (segments.length > 2 || isDirectory);
  if (top !== 'roles') return false;
  if (second === `${id}.checks`) return segments.length > 2 || isDirectory;
  if (second === '.assets') {
    if (segments.length === 2) return isDirectory;
    if (third !== 'emojis') return false;
    if (segments.length === 3) return isDirectory;
    return segments.length === 4 && !isDirectory && segments[3]!.startsWith(`${id.toLowerCase()}-`);
  }
  return segments.length === 2 && !isDirectory && [`${id}.identity.md`, `${id}.soul.md`, `${id}.md`].includes(second!);
}

/**
 * Names that are a running process's bookkeeping, not the role's data: our atomic-write temp
 * files, the per-role `.memory.lock`, the `<file>.lock` files of state.json/BONDS/digests, and
 * the `.stale-<pid>-<time>` graves a lock takeover leaves for a moment. Carried into another
 * home they would mean "someone is writing" there (a copied lock blocks that role's first
 * consolidation), so export leaves them out and import skips them.
 */
export function isLeftBehindName(name: string): boolean {
  return isTempFileName(name) || name.startsWith('.memory.lock') || name.endsWith('.lock') || name.includes('.stale-');
}

/** Whether any segment of an archive path is such a name (a lock folder's contents go with it). */
export function isLeftBehindPath(segments: string[]): boolean {
  return segments.some(isLeftBehindName);
}
