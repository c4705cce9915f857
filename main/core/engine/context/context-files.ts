import fs from 'node:fs';
import path from 'node:path';
import { readTextIfExists } from '../../platform/fs/read-if-exists.js';
import type { ProjectMemory } from './shared-memory-blocks.js';

/**
 * Reading the notes files (DSH-1, DSH-2) for a load. Read-only by design: DSH-2 injects a file
 * only if it exists and never creates it,
 * and a hook that cannot read a file says nothing about it rather than failing the session.
 */
function readText(file: string): string | undefined {
  try {
    // Most cwds have no MEMORY.md: asked first rather than caught (read-if-exists.ts).
    return readTextIfExists(file)?.replace(/^\uFEFF/, '');
  } catch {
    return undefined;
  }
}

/** `<memory home>/FACT.md` (DSH-1); undefined when there is none. */
export function readFactsText(factsFile: string): string | undefined {
  return readText(factsFile);
}

/** `<cwd>/MEMORY.md` (DSH-2) when it exists; never created. */
export function readProjectMemory(cwd: string): ProjectMemory | undefined {
  const file = path.join(cwd, 'MEMORY.md');
  const text = readText(file);
  return text === undefined ? undefined : { path: file, text };
}

const NEWLINE = 0x0a;

/** The last count, by the journal's stamp: the daemon counts it at every SessionStart, and it only grows. */
let counted: { file: string; stamp: string; count: number } | undefined;

/**
 * Entries in `<memory home>/JOURNAL.jsonl` (DSH-3): its non-empty lines. The journal grows without
 * bound, so it is counted in chunks rather than read into one string on every session start, and
 * not again while its size, times and inode are the same.
 */
export function countJournalEntries(journalFile: string): number {
  let fd: number;
  try {
    if (!fs.existsSync(journalFile)) return 0;
    fd = fs.openSync(journalFile, 'r');
  } catch {
    return 0;
  }
  try {
    const stat = fs.fstatSync(fd);
    const stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
    if (counted?.file === journalFile && counted.stamp === stamp) return counted.count;
    const count = countLines(fd);
    counted = { file: journalFile, stamp, count };
    return count;
  } finally {
    fs.closeSync(fd);
  }
}

function countLines(fd: number): number {
  const buffer = Buffer.alloc(64 * 1024);
  let count = 0;
  let lineHasText = false;
  for (;;) {
    const read = fs.readSync(fd, buffer, 0, buffer.length, null);
    if (read === 0) break;
    for (let i = 0; i < read; i++) {
      const byte = buffer[i]!;
      if (byte === NEWLINE) {
        if (lineHasText) count++;
        lineHasText = false;
      } else if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) lineHasText = true;
    }
  }
  return lineHasText ? count + 1 : count;
}
