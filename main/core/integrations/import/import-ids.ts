import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ALL_CATEGORIES } from '../../../../common/memory.js';
import { splitRoleId } from '../../../../common/role-id.js';
import { KiokuError } from '../../../../common/errors.js';
import type { KiokuPaths } from '../../platform/config/paths.js';
import { fileNameForId } from '../../store/memory/memory-file.js';
import { listMemoryRoles, roleMemoryDir } from '../../store/memory/memory-layout.js';
import { collectUsedRoleIds, nextRoleId } from '../../store/roles/role-next-id.js';
import { loadAllRoles } from '../../store/roles/role-repository.js';

/**
 * What makes an import idempotent (X-IMPORT: "a second run changes nothing").
 * Design notes: docs/design-notes.md, "main/core/integrations/import/import-ids.ts".
 */
export const IMPORTED_FROM_KEY = 'imported_from';

/**
 * `20260312-jsc-1a2b3c4d5e6f`: the date the source gives (read as text, so the id never depends
 * on the time zone of the machine that imports), then the source kind and a content hash.
 */
export function importedMemoryId(kind: 'jsc' | 'dsh', sourceKey: string, sourcePath: string, content: string, created: string): string {
  const hash = createHash('sha256')
    .update(`${kind}\0${sourceKey}\0${sourcePath}\0${content.replace(/\r\n/g, '\n').trim()}`)
    .digest('hex')
    .slice(0, 12);
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(created.trim());
  return date ? `${date[1]}${date[2]}${date[3]}-${kind}-${hash}` : `${kind}-${hash}`;
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Every memory file name a role's folder holds or once held, by id: its `.md` in any category,
 * and the gzip copies in `archive/raw/<date>/` (consolidated by a sleep) and `archive/forgotten/`
 * (`<id>.md.gz`, or `<id>-2.md.gz` … when a name was taken). An import may write a memory only
 * when its id is not here. Read once per role: one pass over the folders, however many ids.
 */
export function collectImportTraces(memoryHome: string, role: string): Map<string, string> {
  const dir = roleMemoryDir(memoryHome, role);
  const traces = new Map<string, string>();
  for (const category of ALL_CATEGORIES) {
    for (const entry of listDir(path.join(dir, category))) {
      if (entry.endsWith('.md') && !traces.has(entry.slice(0, -3))) traces.set(entry.slice(0, -3), path.join(dir, category, entry));
    }
  }
  const archived = (folder: string) => {
    for (const entry of listDir(folder).sort()) {
      const match = /^(.*?)(-\d{1,3})?\.md\.gz$/.exec(entry);
      if (!match) continue;
      const file = path.join(folder, entry);
      for (const base of [`${match[1]}${match[2] ?? ''}`, match[1]!]) if (!traces.has(base)) traces.set(base, file);
    }
  };
  archived(path.join(dir, 'archive', 'forgotten'));
  const rawRoot = path.join(dir, 'archive', 'raw');
  for (const date of listDir(rawRoot).sort()) archived(path.join(rawRoot, date));
  return traces;
}

/** The trace of one memory id (see collectImportTraces), or undefined. */
export function findImportTrace(traces: ReadonlyMap<string, string>, id: string): string | undefined {
  return traces.get(fileNameForId(id).slice(0, -3));
}

/** The role whose identity frontmatter records this source (`imported_from`). */
export function findRoleBySourceKey(roleHome: string, sourceKey: string): string | undefined {
  for (const entry of loadAllRoles(roleHome)) {
    const recorded = entry.definition?.extraFields[IMPORTED_FROM_KEY];
    if (typeof recorded === 'string' && recorded.trim() === sourceKey) return entry.id;
  }
  return undefined;
}

/** The role whose memory folder already holds one of these imported memory ids (a memory-only import). */
export function findRoleByMemoryIds(memoryHome: string, ids: readonly string[]): string | undefined {
  if (ids.length === 0) return undefined;
  for (const role of listMemoryRoles(memoryHome)) {
    const traces = collectImportTraces(memoryHome, role);
    if (ids.some((id) => findImportTrace(traces, id) !== undefined)) return role;
  }
  return undefined;
}

/**
 * The next free ID for a prefix (ROLE-3, like role-next-id.ts), also skipping IDs this run has
 * already handed out: a dry run writes nothing, so two personas with the same prefix would
 * otherwise both be shown the same ID.
 */
export function mintRoleId(paths: Pick<KiokuPaths, 'roleHome' | 'memoryHome'>, prefix: string, reserved: ReadonlySet<string>): string {
  const first = nextRoleId(paths, prefix); // validates the prefix and counts the homes
  const used = collectUsedRoleIds(paths);
  let index = splitRoleId(first)!.index;
  const taken = (n: number) => {
    const id = `${prefix}${String(n).padStart(2, '0')}`;
    return used.has(id) || reserved.has(id);
  };
  while (index <= 99 && taken(index)) index++;
  if (index > 99) {
    throw new KiokuError('LIMIT_EXCEEDED', `every index of prefix ${prefix} is taken`, {
      hint: 'archive unused roles (`kioku role delete`) or import into an empty role home',
    });
  }
  return `${prefix}${String(index).padStart(2, '0')}`;
}
