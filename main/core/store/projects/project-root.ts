import fs from 'node:fs';
import path from 'node:path';

/**
 * The project a session works in (issue 12): the git top level of its `cwd`, worktrees and
 * submodules included.
 * Design notes: docs/design-notes.md, "main/core/store/projects/project-root.ts".
 */
export function projectRootOf(cwd: string | undefined, home?: string): string | undefined {
  if (!cwd || !path.isAbsolute(cwd)) return undefined;
  const start = path.resolve(cwd);
  const homeDir = home ? path.resolve(home) : undefined;
  for (let dir = start; ;) {
    // A home folder kept in git (dotfiles) is no project of its own: below it, the cwd is.
    if (dir === homeDir) break;
    if (hasGitEntry(dir)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const root = path.parse(start).root;
  if (start === root || start === homeDir) return undefined;
  return start;
}

/**
 * Asked at each level from the cwd up, nearly always of a folder without one: a missing entry
 * answers undefined instead of throwing (an error built with its stack at every level was most of
 * finding the project: 0.16 ms of each SessionStart in a daemon profile, issue 17).
 */
function hasGitEntry(dir: string): boolean {
  try {
    const stat = fs.statSync(path.join(dir, '.git'), { throwIfNoEntry: false });
    return stat !== undefined && (stat.isDirectory() || stat.isFile());
  } catch {
    return false; // ENOTDIR, EACCES: not a project root either
  }
}

/** Two spellings of one folder (a trailing slash, `..`) compare equal. */
export function sameProject(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && path.resolve(a) === path.resolve(b);
}
