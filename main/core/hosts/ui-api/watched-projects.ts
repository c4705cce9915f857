/**
 * The project folders whose MEMORY.md a window has open (the project-memory editor, the "next
 * session" preview): change-watch.ts looks at those files too, so an edit made in an editor or
 * with `kioku project-memory` reaches the open view. Bounded: the most recent few only.
 */
const KEPT = 20;
const inView: string[] = [];

export function noteProjectInView(folder: string): void {
  const at = inView.indexOf(folder);
  if (at !== -1) inView.splice(at, 1);
  inView.unshift(folder);
  inView.length = Math.min(inView.length, KEPT);
}

export function projectsInView(): readonly string[] {
  return inView;
}
