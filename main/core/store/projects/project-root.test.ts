import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRootOf } from './project-root.js';

let root: string | undefined;
afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function tree(): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-root-'));
  return root;
}

describe('projectRootOf: the git top level of a cwd, without spawning git (issue 12)', () => {
  it('walks up from a subfolder to the folder holding .git (a folder in a clone)', () => {
    const dir = tree();
    const repo = path.join(dir, 'work', 'shop');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    fs.mkdirSync(path.join(repo, 'src', 'cart'), { recursive: true });
    expect(projectRootOf(path.join(repo, 'src', 'cart'), dir)).toBe(repo);
    expect(projectRootOf(repo, dir)).toBe(repo);
  });

  it('takes a .git file (a worktree or submodule) as the top level too', () => {
    const dir = tree();
    const worktree = path.join(dir, 'wt');
    fs.mkdirSync(path.join(worktree, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(worktree, '.git'), 'gitdir: /elsewhere/.git/worktrees/wt\n');
    expect(projectRootOf(path.join(worktree, 'docs'), dir)).toBe(worktree);
  });

  it('outside any repository the cwd itself; the home folder and the root are no project', () => {
    const dir = tree();
    const plain = path.join(dir, 'notes', 'drafts');
    fs.mkdirSync(plain, { recursive: true });
    expect(projectRootOf(plain, dir)).toBe(plain);
    expect(projectRootOf(dir, dir)).toBeUndefined();
    expect(projectRootOf(path.parse(dir).root, dir)).toBeUndefined();
    expect(projectRootOf(undefined, dir)).toBeUndefined();
    expect(projectRootOf('relative/path', dir)).toBeUndefined();
  });

  it('a home kept in git (dotfiles) is not every session’s project', () => {
    const dir = tree();
    fs.mkdirSync(path.join(dir, '.git'));
    const plain = path.join(dir, 'scratch');
    fs.mkdirSync(plain);
    expect(projectRootOf(plain, dir)).toBe(plain);
  });
});
