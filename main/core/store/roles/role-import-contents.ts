import fs from 'node:fs';
import path from 'node:path';
import { isRefusedYaml } from '../../platform/frontmatter/guarded-yaml.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import type { ExportManifest } from './role-export-manifest.js';
import type { VettedEntry } from './role-import-vetting.js';
import { roleFilePaths } from './role-repository.js';

/**
 * What `role import` checks in the extracted files themselves, after vetting the archive's shape
 * (role-import-vetting.ts) and its checksums: a checksum only proves the files are the ones the
 * archive's maker listed, not that they are safe to load (issue 14).
 */

/**
 * Every `.md` the import would write is read as Kioku will read it. One whose front matter is
 * refused (a YAML anchor: an alias bomb, guarded-yaml.ts) refuses the whole archive, naming the
 * file: imported, it would be skipped on every load anyway, and a role is not half-imported.
 * Other oddities (a missing closing `---`, text that is not UTF-8) are imported as they are and
 * reported on load like any such file in the home, as a copy of the exporting home would be.
 */
export function findRefusedMarkdown(extracted: string, entries: readonly VettedEntry[]): { path: string; message: string } | undefined {
  for (const entry of entries) {
    if (entry.kind !== 'file' || !entry.path.endsWith('.md')) continue;
    const text = fs.readFileSync(path.join(extracted, ...entry.path.split('/')), 'utf8');
    try {
      parseFrontmatter(text);
    } catch (error) {
      if (isRefusedYaml(error)) return { path: entry.path, message: error.message };
    }
  }
  return undefined;
}

/**
 * The archive's identity file may say another role ID in its front matter than the manifest and
 * the file names do (edited by hand, or a renamed copy). Kioku finds a role by its file names and
 * the import writes them, and the memory folder, under the manifest's ID, so that is the role the
 * user gets; it is not refused (nothing is unsafe about it), but the user is told instead of it
 * passing without a word. The file is imported as written, never rewritten.
 */
export function identityIdMismatch(extracted: string, manifest: ExportManifest): string | undefined {
  const files = roleFilePaths(path.join(extracted, 'roles'), manifest.id);
  const file = [files.identity, files.legacy].find((candidate) => fs.existsSync(candidate));
  if (!file) return undefined;
  let stated: unknown;
  try {
    stated = parseFrontmatter(fs.readFileSync(file, 'utf8')).data.id;
  } catch {
    return undefined; // the role definition's own check reports an unreadable file
  }
  const said = stated === undefined || stated === null ? '' : String(stated).trim();
  if (!said || said === manifest.id) return undefined;
  return `the role definition roles/${path.basename(file)} says id "${said}", but the archive (its manifest and file names) is role ${manifest.id}; it was imported as ${manifest.id}, the ID Kioku finds it by (the "id:" line was left as written; change it to ${manifest.id} to make them agree)`;
}
