import fs from 'node:fs';
import path from 'node:path';

/**
 * Log files that cannot fill the disk (issue 14): once a file reaches LOG_ROTATE_BYTES it is
 * renamed to `<file>.1` (the previous `.1` to `.2`, and so on up to LOG_KEEP_OLD files, the
 * oldest dropped), and the next line starts a new file. At most (LOG_KEEP_OLD + 1) ×
 * LOG_ROTATE_BYTES per log.
 *
 * The hook appends on every assistant event, so an append stays cheap: open, write, fstat,
 * close — the size comes from the descriptor already open, and the folder is only created when
 * the open says it is missing. Several processes append to the same file (O_APPEND keeps their
 * lines whole); two that pass the limit together may both rotate, which costs at worst one old
 * file, never a line of the current one — "atomic enough" for a log.
 */
export const LOG_ROTATE_BYTES = 2 * 1024 * 1024;
export const LOG_KEEP_OLD = 2;

function openForAppend(file: string): number {
  try {
    return fs.openSync(file, 'a', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    return fs.openSync(file, 'a', 0o600);
  }
}

/** Append `text` to `file`, then rotate the file if it has reached the limit. Throws on I/O errors. */
export function appendCapped(file: string, text: string): void {
  const fd = openForAppend(file);
  let written: fs.Stats;
  try {
    fs.writeSync(fd, text);
    written = fs.fstatSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (written.size >= LOG_ROTATE_BYTES) rotate(file, written);
}

function rotate(file: string, written: fs.Stats): void {
  // Another process rotated it since our write: its new file is not the one that grew too big.
  const current = fs.statSync(file, { throwIfNoEntry: false });
  if (!current || current.ino !== written.ino || current.dev !== written.dev) return;
  for (let n = LOG_KEEP_OLD - 1; n >= 1; n -= 1) renameIfThere(`${file}.${n}`, `${file}.${n + 1}`);
  renameIfThere(file, `${file}.1`);
}

function renameIfThere(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
