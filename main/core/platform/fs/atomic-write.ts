import fs from 'node:fs';
import path from 'node:path';
import { uniqueHex } from './unique-hex.js';

/**
 * Atomic file writes: temp file in the same folder, fsync, rename over the target, fsync the
 * folder. A crash leaves either the old file or the new one, never half of each (Signal's and
 * claude-mem's habit). Temp names start with "." and end with ".tmp" so scanners skip them.
 */
function tempNameFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${uniqueHex()}.tmp`);
}

/** fsync one file or folder by its path; false when it cannot be opened (gone) or synced. */
function fsyncPath(target: string): boolean {
  try {
    const fd = fs.openSync(target, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return true;
  } catch {
    return false;
  }
}

/** Make a folder's entries (a rename, a new file) durable; best effort. */
export function fsyncDir(dir: string): void {
  // Windows cannot open folders for fsync; elsewhere a failure here is not worth failing a write.
  if (process.platform === 'win32') return;
  fsyncPath(dir);
}

/**
 * Make a file written with `durable: false` durable after all, and the folder entry that names
 * it: for a write whose reader must not wait for the disk (the daemon acknowledges a hook's event
 * first, then makes it durable). A file already gone (ingested and removed) needs nothing.
 */
export function syncWrittenFile(file: string): void {
  // Gone, or unreadable: nothing of ours to make durable.
  if (fsyncPath(file)) fsyncDir(path.dirname(file));
}

/**
 * Memories and roles are personal: new files are readable by their owner only, and folders Kioku
 * creates likewise. A rewrite keeps whatever mode the file already had (a user's `chmod`
 * survives a recall's hit write-back).
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

function modeFor(target: string, requested: number | undefined): number {
  if (requested !== undefined) return requested;
  // A new file is the common case (a session's first history line): no ENOENT error to build.
  try {
    const stat = fs.statSync(target, { throwIfNoEntry: false });
    return stat ? stat.mode & 0o7777 : PRIVATE_FILE_MODE;
  } catch {
    return PRIVATE_FILE_MODE;
  }
}

export interface AtomicWriteOptions {
  /** File mode; default: the existing file's mode, else PRIVATE_FILE_MODE. */
  mode?: number;
  /** Create the parent folder when missing (default true). */
  mkdir?: boolean;
  /**
   * false skips fsync: the write stays atomic (whole or absent after a crash) but may be lost in
   * a power cut. Only for what a crash makes worthless anyway or what is rebuilt (session locks,
   * context snapshots, caches, bench fixtures) — never for the user's files.
   */
  durable?: boolean;
}

/**
 * Create the temp file beside the target, making the folder only when it is missing: nearly every
 * write goes to a folder that exists, and creating it first was two more system calls of each
 * (a mkdir that fails, a stat), about 0.03 ms of the daemon's SessionStart, which writes twice.
 */
function openTemp(temp: string, dir: string, mode: number, mkdir: boolean | undefined): number {
  try {
    return fs.openSync(temp, 'wx', mode);
  } catch (error) {
    if (mkdir === false || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  return fs.openSync(temp, 'wx', mode);
}

export function writeFileAtomicSync(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const dir = path.dirname(target);
  const temp = tempNameFor(target);
  const durable = options.durable !== false;
  const mode = modeFor(target, options.mode);
  let fd: number | undefined;
  try {
    fd = openTemp(temp, dir, mode, options.mkdir);
    // openSync's mode is filtered by the umask; a rewrite must end with exactly the old mode.
    if (options.mode === undefined) fs.fchmodSync(fd, mode);
    fs.writeFileSync(fd, data);
    if (durable) fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temp, target);
    if (durable) fsyncDir(dir);
  } catch (error) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        /* already failing */
      }
    }
    try {
      fs.unlinkSync(temp);
    } catch {
      /* never created or already renamed */
    }
    throw error;
  }
}

/** Create a file only if it does not exist yet, atomically (write temp, then link). */
export function createFileExclusiveSync(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): boolean {
  const dir = path.dirname(target);
  const temp = tempNameFor(target);
  try {
    const fd = openTemp(temp, dir, options.mode ?? PRIVATE_FILE_MODE, options.mkdir);
    try {
      fs.writeFileSync(fd, data);
      if (options.durable !== false) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(temp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    if (options.durable !== false) fsyncDir(dir);
    return true;
  } finally {
    try {
      fs.unlinkSync(temp);
    } catch {
      /* gone */
    }
  }
}

/**
 * Exactly the temp names Kioku's writers make: `.<name>.<pid>-<hex>.tmp` (tempNameFor here, and the
 * same shape in deferred-writes.ts, file-lock.ts and clock-skew.ts). Narrower than isTempFileName:
 * what is deleted as an orphan after a crash (orphaned-temp-files.ts) must be ours, never a user's
 * `.notes.tmp`.
 */
export const KIOKU_TEMP_NAME = /^\..+\.\d+-[0-9a-f]{1,8}\.tmp$/;

/** True for names our atomic writer leaves behind only while it runs (or after a crash). */
export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}
