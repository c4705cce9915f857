import fs from 'node:fs';
import path from 'node:path';

/**
 * Log files that cannot fill the disk (issue 14): rotated to `<file>.1`, `.2`, … at
 * LOG_ROTATE_BYTES, keeping LOG_KEEP_OLD old files.
 * Design notes: docs/design-notes.md, "main/core/platform/config/log-rotation.ts".
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
