import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ALL_CATEGORIES } from '../../../../common/memory.js';
import { isValidRoleId } from '../../../../common/role-id.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { stringifyFrontmatter } from '../../platform/frontmatter/stringify-frontmatter.js';
import { createFileExclusiveSync } from '../../platform/fs/atomic-write.js';
import { fileNameForId } from '../../store/memory/memory-file.js';
import { readConflictRecords, type ConflictRecord } from './conflict-records.js';

/**
 * The other side of a file both machines changed, kept next to ours (X-SYNC: nothing is lost,
 * no conflict marker lands in a file Kioku parses). A memory becomes a memory of its own —
 * `<id>.conflict-<hex>`, tagged `conflict`, linked to the original — so recall and the UI show
 * both and the user (or the next sleep) can merge them; any other file gets a `.conflict-<hex>`
 * copy beside it. Conflict copies are found again by that name (sync-status.ts).
 */
export const CONFLICT_MARK = '.conflict-';

function isMemoryPath(rel: string): boolean {
  const parts = rel.split('/');
  return (
    parts.length === 3 && isValidRoleId(parts[0]!) && (ALL_CATEGORIES as readonly string[]).includes(parts[1]!) && parts[2]!.endsWith('.md')
  );
}

function memoryCopy(rel: string, theirs: string, hex: string): { rel: string; text: string } | undefined {
  let parsed;
  try {
    parsed = parseFrontmatter(theirs);
  } catch {
    return undefined;
  }
  const originalId = typeof parsed.data.id === 'string' && parsed.data.id ? parsed.data.id : path.posix.basename(rel, '.md');
  const id = `${originalId}${CONFLICT_MARK}${hex}`;
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);
  const data = {
    ...parsed.data,
    id,
    tags: [...new Set([...list(parsed.data.tags), 'conflict'])],
    links: [...new Set([...list(parsed.data.links), originalId])],
    conflict_of: originalId,
  };
  return { rel: path.posix.join(path.posix.dirname(rel), fileNameForId(id)), text: stringifyFrontmatter(data, parsed.body) };
}

export function conflictCopyFor(record: ConflictRecord, hex = randomBytes(3).toString('hex')): { rel: string; text: string } {
  if (isMemoryPath(record.path)) {
    const copy = memoryCopy(record.path, record.theirs, hex);
    if (copy) return copy;
  }
  return { rel: `${record.path}${CONFLICT_MARK}${hex}`, text: record.theirs };
}

/** Write a copy for every recorded conflict of the tree; returns the copies' paths inside it. */
export function writeConflictCopies(treeDir: string): string[] {
  const written: string[] = [];
  for (const { file, record } of readConflictRecords(treeDir)) {
    const copy = conflictCopyFor(record);
    createFileExclusiveSync(path.join(treeDir, copy.rel), copy.text);
    written.push(copy.rel);
    fs.rmSync(file, { force: true });
  }
  return written;
}
