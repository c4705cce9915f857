import fs from 'node:fs';

/**
 * A file's UTF-8 text, or undefined when there is no such file; other failures throw as
 * `fs.readFileSync` does.
 *
 * Why not just catch ENOENT: for a missing file Node builds an Error with its stack and message,
 * and on a new session most of the files a SessionStart reads are missing (its role history, the
 * role's bonds): each was 0.1–0.15 ms of the daemon's answer (the hooks bench's daemon profile,
 * session 31), against a few microseconds for asking first. A file removed between the two calls
 * still reads as missing.
 */
export function readTextIfExists(file: string): string | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
