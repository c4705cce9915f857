import fs from 'node:fs';
import path from 'node:path';

/**
 * The project folders whose MEMORY.md a window has open (the project-memory editor, the "next
 * session" preview): change-watch.ts looks at those files too, so an edit made in an editor or
 * with `kioku project-memory` reaches the open view. Bounded: the most recent few only.
 */
const KEPT = 20;
const inView: string[] = [];
/** MEMORY.md's key when a window read it: an edit before the watcher's next look still counts. */
const keyWhenRead = new Map<string, string>();

/** Modification key of a file (time and size); '-' when it is not there. */
export function fileKey(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return '-';
  }
}

export function noteProjectInView(folder: string): void {
  const at = inView.indexOf(folder);
  if (at !== -1) inView.splice(at, 1);
  inView.unshift(folder);
  keyWhenRead.set(folder, fileKey(path.join(folder, 'MEMORY.md')));
  for (const dropped of inView.splice(KEPT)) keyWhenRead.delete(dropped);
}

export function projectsInView(): readonly string[] {
  return inView;
}

/** The MEMORY.md key a window saw when it read the project, if it did. */
export function projectKeyWhenRead(folder: string): string | undefined {
  return keyWhenRead.get(folder);
}
