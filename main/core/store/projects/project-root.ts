import fs from 'node:fs';
import path from 'node:path';

/**
 * The project a session works in (issue 12): the git top level of its `cwd`, found by walking up
 * for a `.git` entry — a folder in a plain clone, a file (`gitdir: …`) in a worktree or a
 * submodule, whose top level is the folder holding that file. No `git` is spawned: this runs on
 * the hook path (capture, SessionStart), where a child process would cost more than the hook.
 * Outside any repository the project is the `cwd` itself, except the home folder and the
 * filesystem root, which are where sessions start when they are about no project at all (a home
 * kept in git for its dotfiles is not taken as every session's project either).
 */
export function projectRootOf(cwd: string | undefined, home?: string): string | undefined {
  if (!cwd || !path.isAbsolute(cwd)) return undefined;
  const start = path.resolve(cwd);
  const homeDir = home ? path.resolve(home) : undefined;
  for (let dir = start; ; ) {
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

function hasGitEntry(dir: string): boolean {
  try {
    const stat = fs.statSync(path.join(dir, '.git'));
    return stat.isDirectory() || stat.isFile();
  } catch {
    return false;
  }
}

/** Two spellings of one folder (a trailing slash, `..`) compare equal. */
export function sameProject(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && path.resolve(a) === path.resolve(b);
}
