import fs from 'node:fs';
import path from 'node:path';
import { KIOKU_TEMP_NAME } from './atomic-write.js';

/**
 * Removes the temp files a writer killed mid-write leaves behind (`.<name>.<pid>-<hex>.tmp`), which
 * readers skip and nothing else would remove (issue 14).
 * Design notes: docs/design-notes.md, "main/core/platform/fs/orphaned-temp-files.ts".
 */
export const ORPHAN_AGE_MS = 60 * 60_000;

/** Remove orphaned temp files below `dir` (not following links); returns what was removed. */
export function removeOrphanedTempFiles(dir: string, nowMs: number = Date.now()): string[] {
  const removed: string[] = [];
  const walk = (current: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && KIOKU_TEMP_NAME.test(entry.name)) {
        try {
          if (nowMs - fs.lstatSync(full).mtimeMs < ORPHAN_AGE_MS) continue;
          fs.unlinkSync(full);
          removed.push(full);
        } catch {
          /* renamed or removed meanwhile: not an orphan after all */
        }
      }
    }
  };
  walk(dir);
  return removed;
}
