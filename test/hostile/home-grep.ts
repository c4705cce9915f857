import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** A needle found in clear: where, and which. */
export interface Leak {
  file: string;
  needle: string;
  /** Up to 40 bytes either side, for the failure message. */
  context: string;
}

/**
 * Every file below `root` as bytes, gzip archives (archive/raw/*.md.gz) unpacked, the SQLite
 * index and its WAL included as they are on disk: a secret in clear is in clear there too,
 * since SQLite stores text as UTF-8. `skip` lists folders that are the test's own input (an
 * assistant's transcript), not anything Kioku wrote.
 */
export function grepHome(root: string, needles: readonly string[], skip: readonly string[] = []): Leak[] {
  const leaks: Leak[] = [];
  const patterns = needles.map((needle) => ({ needle, bytes: Buffer.from(needle, 'utf8') }));
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (skip.includes(full)) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        let bytes = fs.readFileSync(full);
        if (entry.name.endsWith('.gz')) bytes = zlib.gunzipSync(bytes);
        for (const { needle, bytes: pattern } of patterns) {
          const at = bytes.indexOf(pattern);
          if (at === -1) continue;
          const context = bytes.subarray(Math.max(0, at - 40), at + pattern.length + 40).toString('utf8');
          leaks.push({ file: path.relative(root, full), needle, context });
        }
      }
    }
  };
  walk(root);
  return leaks;
}

/** Every file below `root` whose path ends with `suffix` (for "the SQLite index was there to grep"). */
export function filesEndingWith(root: string, suffix: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (full.endsWith(suffix)) found.push(full);
    }
  };
  walk(root);
  return found;
}
