import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KiokuError } from '../../../../common/errors.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { git, gitOk } from './git.js';
import { ATTRIBUTES, DRIVER_KINDS, IGNORES, withManagedBlock, type SyncTree } from './sync-layout.js';

/**
 * Making a home a git working tree Kioku can sync: `git init` on the tree's branch, the generated
 * `.gitignore`/`.gitattributes` blocks, and the merge drivers in `.git/config` (git never reads
 * drivers from a cloned file, so each machine's `sync init` sets them up).
 */
export function isRepo(dir: string): boolean {
  return fs.existsSync(path.join(dir, '.git'));
}

/** The compiled driver entry: beside this file in dist/, or dist/ of the checkout when run from source (tests). */
export function driverScriptPath(): string {
  const here = fileURLToPath(import.meta.url);
  const name = 'merge-driver-main.js';
  if (here.endsWith('.js')) return path.join(path.dirname(here), name);
  const root = path.resolve(path.dirname(here), '..', '..', '..', '..');
  return path.join(root, 'dist', 'main', 'core', 'engine', 'sync', name);
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export function driverCommand(kind: string, script = driverScriptPath()): string {
  // Under Electron, process.execPath is the app; ELECTRON_RUN_AS_NODE makes it a plain Node.
  const node = process.versions.electron ? `ELECTRON_RUN_AS_NODE=1 ${quote(process.execPath)}` : quote(process.execPath);
  return `${node} ${quote(script)} ${kind} %O %A %B %P`;
}

function writeManaged(file: string, lines: readonly string[]): void {
  let existing = '';
  try {
    existing = fs.readFileSync(file, 'utf8');
  } catch {
    /* a new file */
  }
  const next = withManagedBlock(existing, lines);
  if (next !== existing) writeFileAtomicSync(file, next, { mode: 0o644 });
}

export function prepareTree(tree: SyncTree, env: NodeJS.ProcessEnv): void {
  fs.mkdirSync(tree.dir, { recursive: true, mode: 0o700 });
  if (!isRepo(tree.dir)) gitOk(tree.dir, ['init', '-q', '-b', tree.branch], { env });
  const script = driverScriptPath();
  if (!fs.existsSync(script)) {
    throw new KiokuError('NOT_FOUND', `the merge driver ${script} is missing`, {
      path: script,
      hint: 'run `npm run build` (or reinstall Kioku) and try again',
    });
  }
  writeManaged(path.join(tree.dir, '.gitignore'), IGNORES[tree.name]);
  writeManaged(path.join(tree.dir, '.gitattributes'), ATTRIBUTES[tree.name]);
  for (const kind of DRIVER_KINDS) {
    gitOk(tree.dir, ['config', `merge.kioku-${kind}.name`, `Kioku ${kind} merge`], { env });
    gitOk(tree.dir, ['config', `merge.kioku-${kind}.driver`, driverCommand(kind, script)], { env });
  }
  writePreCommitHook(tree.dir, path.join(path.dirname(script), 'pre-commit-main.js'));
  // Renames would pair an inbox item with its archive and merge them; Kioku's files are unique by name.
  gitOk(tree.dir, ['config', 'merge.renames', 'false'], { env });
  gitOk(tree.dir, ['config', 'diff.renames', 'false'], { env });
  gitOk(tree.dir, ['config', 'pull.rebase', 'false'], { env });
}

/** A hand-made commit in the home gets the sync's secret check too (pre-commit-main.ts). */
function writePreCommitHook(dir: string, script: string): void {
  const hook = path.join(dir, '.git', 'hooks', 'pre-commit');
  const node = process.versions.electron ? `ELECTRON_RUN_AS_NODE=1 ${quote(process.execPath)}` : quote(process.execPath);
  const text = `#!/bin/sh\n# kioku: the secret check of \`kioku sync\` (written by \`kioku sync init\`)\nexec ${node} ${quote(script)}\n`;
  try {
    if (fs.readFileSync(hook, 'utf8') === text) return;
    if (!fs.readFileSync(hook, 'utf8').includes('# kioku:')) return; // the user's own hook stays
  } catch {
    /* no hook yet */
  }
  writeFileAtomicSync(hook, text, { mode: 0o755 });
}

export function currentRemote(dir: string, env: NodeJS.ProcessEnv): string | undefined {
  const result = git(dir, ['remote', 'get-url', 'origin'], { env });
  return result.code === 0 ? result.stdout.trim() : undefined;
}

export function setRemote(dir: string, url: string, env: NodeJS.ProcessEnv): void {
  if (currentRemote(dir, env) === undefined) gitOk(dir, ['remote', 'add', 'origin', url], { env });
  else gitOk(dir, ['remote', 'set-url', 'origin', url], { env });
}
