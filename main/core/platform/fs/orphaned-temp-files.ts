import fs from 'node:fs';
import path from 'node:path';
import { KIOKU_TEMP_NAME } from './atomic-write.js';

/**
 * A writer killed between creating its temp file and renaming it (`kill -9`, a power cut) leaves
 * `.<name>.<pid>-<hex>.tmp` behind for good: readers skip such names, so nothing else ever removes
 * it (issue 14 found one in archive/raw after a kill mid-sleep). The next run removes them.
 *
 * Only Kioku's own temp names (KIOKU_TEMP_NAME) and only old ones: a temp file is normally renamed
 * within milliseconds, so one untouched for ORPHAN_AGE_MS belongs to no live write, while a fresh
 * one may be another process's write in progress (capture writes the inbox without the memory
 * lock). Ages are judged on the real clock against the file's real mtime — never KIOKU_NOW, which
 * may be frozen anywhere in time.
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
