import fs from 'node:fs';
import { ALL_CATEGORIES, type MemoryCategory } from '../../../../common/memory.js';

/**
 * Reading a replay queue (replay-queue.ts): its replays by file, less the files an interrupted
 * apply already finished.
 *
 * A queue only grows until it is applied (lines appended; applying renames it aside and the next
 * append starts a new file), so a process that reads it again and again — the daemon, before
 * every recall it answers — reads only what was appended since its last read. Read whole, a burst
 * of recalls read the queue once per recall, each time longer: 0.4 ms a recall after sixty at
 * 100k memories (issue 17). A file that is not the one read before (another inode, or other
 * first bytes: an inode number can be reused) or that shrank is read whole again.
 */
export interface Pending {
  times: number;
  at: string;
  category: MemoryCategory;
  mtimeMs: number;
}

/** A queued line: when, and each hit as [path under the memory home, folder, mtime when indexed]. */
export interface QueuedLine {
  at: string;
  hits: Array<[string, MemoryCategory, number]>;
}

interface ReadSoFar {
  ino: number;
  /** The file's first bytes when it was first read. */
  head: Buffer;
  /** Bytes read up to the end of the last whole line. */
  offset: number;
  pending: Map<string, Pending>;
  done: Set<string>;
}

const HEAD_BYTES = 64;
const NEWLINE = 0x0a;
const readSoFar = new Map<string, ReadSoFar>();

const isCategory = (value: unknown): value is MemoryCategory => ALL_CATEGORIES.includes(value as MemoryCategory);

/** `<role>/<folder>/<name>.md` under the memory home, nothing that climbs out of it. */
function isQueuedPath(rel: unknown, role: string, category: MemoryCategory): rel is string {
  if (typeof rel !== 'string') return false;
  const parts = rel.split('/');
  return parts.length === 3 && parts[0] === role && parts[1] === category && /^[^/\\]+\.md$/.test(parts[2]!) && !parts[2]!.startsWith('.');
}

/**
 * Fold one line into what was read so far (the last line naming a file gives its folder and
 * time). `only`: the files asked about; every other file's hits are passed over.
 */
function addLine(raw: string, role: string, into: Pick<ReadSoFar, 'pending' | 'done'>, only?: ReadonlySet<string>): void {
  let line: unknown;
  try {
    line = JSON.parse(raw);
  } catch {
    return; // cut short by a crash, or not ours
  }
  if (!line || typeof line !== 'object') return;
  const { at, hits, done: finished } = line as Partial<QueuedLine> & { done?: unknown };
  if (typeof finished === 'string') {
    if (!only || only.has(finished)) into.done.add(finished);
    return;
  }
  if (typeof at !== 'string' || !Array.isArray(hits)) return;
  for (const hit of hits) {
    if (only && !only.has(hit?.[0])) continue;
    if (!Array.isArray(hit) || !isCategory(hit[1]) || !isQueuedPath(hit[0], role, hit[1]) || typeof hit[2] !== 'number') continue;
    const known = into.pending.get(hit[0]);
    into.pending.set(hit[0], { times: (known?.times ?? 0) + 1, at, category: hit[1], mtimeMs: hit[2] });
  }
}

/** Fold lines into what was read so far, in order. */
function addLines(text: string, role: string, into: ReadSoFar): ReadSoFar {
  for (const raw of text.split('\n')) if (raw) addLine(raw, role, into);
  return into;
}

function withoutDone(read: ReadSoFar): Map<string, Pending> {
  const pending = new Map(read.pending);
  for (const rel of read.done) pending.delete(rel);
  return pending;
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const got = fs.readSync(fd, buffer, read, length - read, position + read);
    if (got === 0) break;
    read += got;
  }
  return buffer.subarray(0, read);
}

/** The queue's replays by file (relative path), less the finished ones; empty when there is no queue. */
export function readQueue(file: string, role: string): Map<string, Pending> {
  let fd: number | undefined;
  // Asked first: most of the time there is no queue aside (and often none at all), and a
  // failed open costs an exception, more than the read itself.
  try {
    if (fs.existsSync(file)) fd = fs.openSync(file, 'r');
  } catch {
    // gone in between
  }
  if (fd === undefined) {
    readSoFar.delete(`${role}\0${file}`);
    return new Map();
  }
  try {
    const { ino, size } = fs.fstatSync(fd);
    let known = readSoFar.get(`${role}\0${file}`);
    const sameFile =
      known !== undefined && known.ino === ino && size >= known.offset && readAt(fd, 0, known.head.length).equals(known.head);
    if (!sameFile || !known) {
      known = { ino, head: readAt(fd, 0, Math.min(HEAD_BYTES, size)), offset: 0, pending: new Map(), done: new Set() };
      readSoFar.set(`${role}\0${file}`, known);
    }
    if (size > known.offset) {
      const tail = readAt(fd, known.offset, size - known.offset);
      // Only whole lines: one being appended right now is read once it is complete.
      const end = tail.lastIndexOf(NEWLINE) + 1;
      addLines(tail.toString('utf8', 0, end), role, known);
      known.offset += end;
      if (known.head.length < HEAD_BYTES && known.offset > known.head.length)
        known.head = readAt(fd, 0, Math.min(HEAD_BYTES, known.offset));
      // Text after the last newline still counts now, as a whole read counted it, but is read
      // again next time: a line without its newline yet, or one cut short for good.
      const rest = tail.toString('utf8', end);
      if (rest) return withoutDone(addLines(rest, role, { ...known, pending: new Map(known.pending), done: new Set(known.done) }));
    }
    return withoutDone(known);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * What `readQueue` gives for a few files only — a recall's hits — read whole, without keeping
 * anything. Only the lines that name one of them are parsed: a line names a file by its path as
 * JSON writes it, so those lines are found by searching the text for that string. Parsing every
 * line was most of reading a long queue in a fresh process (0.6 ms a CLI recall at 16 KB, issue
 * 17), for the ten files it answers about.
 */
export function readQueueFor(file: string, role: string, rels: readonly string[]): Map<string, Pending> {
  let text: string;
  try {
    if (!fs.existsSync(file)) return new Map();
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return new Map(); // gone in between
  }
  const only = new Set(rels);
  const starts = new Set<number>();
  for (const rel of only) {
    const needle = JSON.stringify(rel);
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) starts.add(text.lastIndexOf('\n', at) + 1);
  }
  const read = { pending: new Map<string, Pending>(), done: new Set<string>() };
  for (const start of [...starts].sort((a, b) => a - b)) {
    const end = text.indexOf('\n', start);
    addLine(text.slice(start, end < 0 ? undefined : end), role, read, only);
  }
  for (const rel of read.done) read.pending.delete(rel);
  return read.pending;
}
