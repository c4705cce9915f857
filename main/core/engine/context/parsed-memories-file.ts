import fs from 'node:fs';
import path from 'node:path';
import type { MemoryCategory, StoredMemory } from '../../../../common/memory.js';
import type { ParsedMemoriesFiles } from '../../platform/config/prepared-paths.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { fileStamp } from '../../platform/fs/file-stamp.js';
import { readUtf16File, utf16Bytes } from '../../platform/fs/utf16-text-file.js';
import type { MemoryFileRef } from '../../store/memory/memory-layout.js';
import { isStoredMemory } from './prepared-load-shapes.js';
import { sameFolder, sameItems, type FolderStamps } from './prepared-load-stamps.js';

/**
 * Every memory file of a role as last parsed, keyed by its stat (issue 14, X-PERF): when the
 * prepared load no longer holds — and it never does after a session, whose end writes a memory —
 * only the files whose stamp moved are read and parsed again; the other 9,999 come from here.
 * Read only then, so a prepared load that holds never pays for these larger files.
 * Design notes: docs/design-notes.md, "main/core/engine/context/parsed-memories-file.ts".
 *
 * One file per memory folder (format 3): a turn changes the inbox alone, and its file is the only
 * one written again — not 8 MB for every folder at 10,000 memories, after every turn. In each,
 * one line per memory file, `<JSON key>\t<size>\t<mtimeMs>\t<ctimeMs>\t<ino>\t<JSON memory>`
 * under a JSON header line (JSON never writes a raw tab or newline): a line is parsed only when
 * its file's stamp matches, and written back as it was read — a file that changed costs one
 * line, not stringifying 10,000 memories again.
 */
// 3: one file per folder; 2: UTF-16LE (utf16-text-file.ts), a stale load's first read.
const FORMAT = 'kioku-parsed-memories/3';
/** Far more than 10,000 memories take (about 8 MB for all folders); a larger file is not one of ours. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

interface Header {
  format: string;
  roleDir: string;
  category: MemoryCategory;
}

export interface ParsedMemories {
  /** The memory as parsed when the file had exactly this stat; undefined: read the file. */
  lookup(ref: MemoryFileRef, stat: fs.Stats): StoredMemory | undefined;
  /**
   * The folders whose file holds exactly their memories among these — every stored line used, and
   * a line for every memory: written again, they would come out the same.
   */
  unchangedFolders(memories: readonly StoredMemory[]): ReadonlySet<MemoryCategory>;
}

/** The stored lines of a role's memory folders; never throws (a file that cannot be trusted is as good as none). */
export function readParsedMemories(
  files: ParsedMemoriesFiles,
  roleDir: string,
  roleId: string,
  categories: readonly MemoryCategory[],
): ParsedMemories {
  const lines = new Map<string, string>();
  /** Per folder whose file could be used, how many lines it held and how many were used. */
  const counts = new Map<MemoryCategory, { lines: number; hits: number }>();
  for (const category of categories) {
    const stored = readLines(files.folder(category), roleDir, category);
    if (!stored) continue;
    for (const [key, line] of stored) lines.set(key, line);
    counts.set(category, { lines: stored.size, hits: 0 });
  }
  return {
    lookup(ref, stat) {
      const line = lines.get(keyOf(ref.category, path.basename(ref.path)));
      if (!line) return undefined;
      const fields = line.split('\t', 5);
      if (+fields[1]! !== stat.size || +fields[2]! !== stat.mtimeMs || +fields[3]! !== stat.ctimeMs || +fields[4]! !== stat.ino)
        return undefined;
      let memory: unknown;
      try {
        memory = JSON.parse(line.slice(fields.join('\t').length + 1));
      } catch {
        return undefined;
      }
      // A hand-made line must not reach the assembly: the prepared load's checks, and this very file.
      if (!isStoredMemory(memory, roleDir, [ref.category]) || memory.path !== ref.path || memory.role !== roleId) return undefined;
      const count = counts.get(ref.category);
      if (count) count.hits++;
      storedLines.set(memory, line);
      return memory;
    },
    unchangedFolders(memories) {
      const found = new Map<MemoryCategory, number>();
      for (const memory of memories) found.set(memory.category, (found.get(memory.category) ?? 0) + 1);
      const unchanged = new Set<MemoryCategory>();
      for (const [category, count] of counts)
        if (count.hits === count.lines && (found.get(category) ?? 0) === count.hits) unchanged.add(category);
      return unchanged;
    },
  };
}

/** The line each memory `lookup` gave was read from, to be written again unchanged. */
const storedLines = new WeakMap<StoredMemory, string>();

const keyOf = (category: string, name: string) => JSON.stringify(`${category}/${name}`);

function readLines(file: string, roleDir: string, category: MemoryCategory): Map<string, string> | undefined {
  try {
    const text = readUtf16File(file, MAX_FILE_BYTES);
    if (text === undefined) return undefined;
    const [head, ...rest] = text.split('\n');
    const header = JSON.parse(head!) as Partial<Header> | null;
    if (!header || header.format !== FORMAT || header.roleDir !== roleDir || header.category !== category) return undefined;
    const lines = new Map<string, string>();
    // Only this folder's: a line of another, hand-made or misplaced, is not counted as this folder's.
    const prefix = keyOf(category, '').slice(0, -1);
    for (const line of rest) {
      const tab = line.indexOf('\t');
      if (tab > 0 && line.startsWith(prefix)) lines.set(line.slice(0, tab), line);
    }
    return lines;
  } catch {
    return undefined;
  }
}

/**
 * Write the lines of the files these stamps were taken of (stamps and memories from the same
 * reading), one file per folder, but not the folders in `unchanged` (readParsedMemories said so).
 * A file read too soon after a change for its stamp to tell (it has a hash in the stamps, RACY_MS)
 * is left out — it is read again next time — and so is a memory whose fields would not come back
 * the same from JSON (a `.inf` in its front matter). A file that already holds exactly this, as
 * this process wrote it, is not written again. The one file of every folder that came before
 * (format 2) is removed: nothing reads it any more.
 */
export function writeParsedMemories(
  files: ParsedMemoriesFiles,
  roleDir: string,
  folders: readonly FolderStamps[],
  memories: readonly StoredMemory[],
  unchanged: ReadonlySet<MemoryCategory> = new Set(),
): void {
  const byCategory = new Map<MemoryCategory, StoredMemory[]>();
  for (const memory of memories) {
    const list = byCategory.get(memory.category);
    if (list) list.push(memory);
    else byCategory.set(memory.category, [memory]);
  }
  for (const folder of folders) {
    if (unchanged.has(folder.category)) continue;
    writeFolder(files.folder(folder.category), roleDir, folder, byCategory.get(folder.category) ?? []);
  }
  try {
    if (fs.existsSync(files.legacy)) fs.rmSync(files.legacy, { force: true });
  } catch {
    // Left for the next write: nothing reads it, and it must not cost this one.
  }
}

function writeFolder(file: string, roleDir: string, folder: FolderStamps, memories: readonly StoredMemory[]): void {
  const before = lastWritten.get(file);
  if (
    before &&
    sameFolder(before.folder, folder) &&
    sameItems(before.memories, memories) &&
    before.stamp !== undefined &&
    before.stamp === fileStamp(file)
  )
    return;
  const at = new Map<string, number>();
  folder.names.forEach((name, index) => at.set(name, index));
  const header: Header = { format: FORMAT, roleDir, category: folder.category };
  const lines = [JSON.stringify(header)];
  for (const memory of memories) {
    const name = path.basename(memory.path);
    const index = at.get(name);
    if (index === undefined || folder.hashes[name] !== undefined) continue;
    const stored = storedLines.get(memory);
    if (stored !== undefined) {
      lines.push(stored);
      continue;
    }
    const body = bodyOf(memory);
    if (body === null) continue;
    const s = folder.stamps;
    const i = index * 4;
    lines.push(`${keyOf(folder.category, name)}\t${s[i]}\t${s[i + 1]}\t${s[i + 2]}\t${s[i + 3]}\t${body}`);
  }
  // A cache: losing it in a power cut only costs the next stale load its head start.
  writeFileAtomicSync(file, utf16Bytes(`${lines.join('\n')}\n`), { durable: false });
  lastWritten.set(file, { folder, memories, stamp: fileStamp(file) });
}

/**
 * A memory's JSON, or null when JSON would not give it back the same. The daemon's memory cache
 * keeps one frozen object per file until the file changes, and its warmer writes this file after
 * every change: each memory is stringified once, not 10,000 of them on every write.
 */
const bodies = new WeakMap<StoredMemory, string | null>();

function bodyOf(memory: StoredMemory): string | null {
  let body = bodies.get(memory);
  if (body === undefined) {
    body = sameThroughJson(memory.extra) ? JSON.stringify(memory) : null;
    if (Object.isFrozen(memory)) bodies.set(memory, body);
  }
  return body;
}

/**
 * What this process last wrote to each file — the folder's stamps and memories it was made of,
 * which give the same lines again — and the file's stamp after: the daemon writes a role's files
 * after the memories changed, most folders unchanged, and their files are neither made nor
 * written again (a file changed or removed since — a role delete — has another stamp, and is).
 * Not the text itself: at 10,000 memories, 16 MB of strings the daemon would hold for nothing.
 */
const lastWritten = new Map<string, { folder: FolderStamps; memories: readonly StoredMemory[]; stamp: string | undefined }>();

/** Whether JSON gives this value back as it is: the front matter's extra fields are YAML's JSON schema, which also has ±.inf and .nan. */
function sameThroughJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(sameThroughJson);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value).every(sameThroughJson);
  return false;
}
