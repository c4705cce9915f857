import type fs from 'node:fs';
import path from 'node:path';
import type { StoredMemory } from '../../../../common/memory.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { fileStamp } from '../../platform/fs/file-stamp.js';
import { readUtf16File, utf16Bytes } from '../../platform/fs/utf16-text-file.js';
import type { MemoryFileRef } from '../../store/memory/memory-layout.js';
import { isStoredMemory } from './prepared-load-shapes.js';
import type { FolderStamps } from './prepared-load-stamps.js';

/**
 * Every memory file of a role as last parsed, keyed by its stat (issue 14, X-PERF): when the
 * prepared load no longer holds — and it never does after a session, whose end writes a memory —
 * only the files whose stamp moved are read and parsed again; the other 9,999 come from here.
 * Read only then, so a prepared load that holds never pays for this larger file.
 * Design notes: docs/design-notes.md, "main/core/engine/context/parsed-memories-file.ts".
 *
 * One line per file, `<JSON key>\t<size>\t<mtimeMs>\t<ctimeMs>\t<ino>\t<JSON memory>` under a JSON
 * header line (JSON never writes a raw tab or newline): a line is parsed only when its file's
 * stamp matches, and written back as it was read — a file that changed costs one line, not
 * stringifying 10,000 memories again.
 */
// 2: in UTF-16LE (utf16-text-file.ts): 8 MB at 10,000 memories, a stale load's first read.
const FORMAT = 'kioku-parsed-memories/2';
/** Far more than 10,000 memories take (about 8 MB); a larger file is not one of ours. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

interface Header {
  format: string;
  roleDir: string;
}

export interface ParsedMemories {
  /** The memory as parsed when the file had exactly this stat; undefined: read the file. */
  lookup(ref: MemoryFileRef, stat: fs.Stats): StoredMemory | undefined;
  /** Whether every stored line was used and these are all the memories there are: the file holds as it is. */
  unchanged(memories: number): boolean;
}

/** The stored lines of a role's memory folder; never throws (a file that cannot be trusted is as good as none). */
export function readParsedMemories(file: string, roleDir: string, roleId: string): ParsedMemories {
  const lines = readLines(file, roleDir);
  let hits = 0;
  return {
    lookup(ref, stat) {
      const line = lines?.get(keyOf(ref.category, path.basename(ref.path)));
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
      hits++;
      storedLines.set(memory, line);
      return memory;
    },
    unchanged: (memories) => lines !== undefined && hits === lines.size && memories === hits,
  };
}

/** The line each memory `lookup` gave was read from, to be written again unchanged. */
const storedLines = new WeakMap<StoredMemory, string>();

const keyOf = (category: string, name: string) => JSON.stringify(`${category}/${name}`);

function readLines(file: string, roleDir: string): Map<string, string> | undefined {
  try {
    const text = readUtf16File(file, MAX_FILE_BYTES);
    if (text === undefined) return undefined;
    const [head, ...rest] = text.split('\n');
    const header = JSON.parse(head!) as Partial<Header> | null;
    if (!header || header.format !== FORMAT || header.roleDir !== roleDir) return undefined;
    const lines = new Map<string, string>();
    for (const line of rest) {
      const tab = line.indexOf('\t');
      if (tab > 0) lines.set(line.slice(0, tab), line);
    }
    return lines;
  } catch {
    return undefined;
  }
}

/**
 * Write the lines of the files these stamps were taken of (stamps and memories from the same
 * reading). A file read too soon after a change for its stamp to tell (it has a hash in the
 * stamps, RACY_MS) is left out — it is read again next time — and so is a memory whose fields
 * would not come back the same from JSON (a `.inf` in its front matter). A file that already
 * holds exactly this, as this process wrote it, is not written again.
 */
export function writeParsedMemories(
  file: string,
  roleDir: string,
  folders: readonly FolderStamps[],
  memories: readonly StoredMemory[],
): void {
  const at = new Map<string, { folder: FolderStamps; index: number }>();
  for (const folder of folders) folder.names.forEach((name, index) => at.set(keyOf(folder.category, name), { folder, index }));
  const header: Header = { format: FORMAT, roleDir };
  const lines = [JSON.stringify(header)];
  for (const memory of memories) {
    const name = path.basename(memory.path);
    const key = keyOf(memory.category, name);
    const found = at.get(key);
    if (!found || found.folder.hashes[name] !== undefined) continue;
    const stored = storedLines.get(memory);
    if (stored !== undefined) {
      lines.push(stored);
      continue;
    }
    const body = bodyOf(memory);
    if (body === null) continue;
    const s = found.folder.stamps;
    const i = found.index * 4;
    lines.push(`${key}\t${s[i]}\t${s[i + 1]}\t${s[i + 2]}\t${s[i + 3]}\t${body}`);
  }
  const text = `${lines.join('\n')}\n`;
  const before = lastWritten.get(file);
  if (before?.text === text && before.stamp !== undefined && before.stamp === fileStamp(file)) return;
  // A cache: losing it in a power cut only costs the next stale load its head start.
  writeFileAtomicSync(file, utf16Bytes(text), { durable: false });
  lastWritten.set(file, { text, stamp: fileStamp(file) });
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
 * What this process last wrote to each file, and the file's stamp after: the daemon warms every
 * role it holds after a burst of events, most of them unchanged, and their files are not written
 * again (a file changed or removed since — a role delete — has another stamp, and is).
 */
const lastWritten = new Map<string, { text: string; stamp: string | undefined }>();

/** Whether JSON gives this value back as it is: the front matter's extra fields are YAML's JSON schema, which also has ±.inf and .nan. */
function sameThroughJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(sameThroughJson);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value).every(sameThroughJson);
  return false;
}
