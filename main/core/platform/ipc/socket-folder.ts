import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { untrustedFolder } from './socket-trust.js';
import { ensurePrivateDir } from './token.js';

/**
 * The daemon's side of "a socket only its user can reach" (APP-3, issue 14): refuse to serve from a
 * folder another user owns or can write into.
 * Design notes: docs/design-notes.md, "main/core/platform/ipc/socket-folder.ts".
 */
export function prepareSocketFolder(socketPath: string, stateDir: string): void {
  const dir = path.dirname(socketPath);
  if (path.resolve(dir) === path.resolve(stateDir)) ensurePrivateDir(dir);
  else {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // A dangling symlink or a file in the way: lstat below says which, in words.
    }
  }
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return;
  const uid = process.getuid();
  let why: string | undefined;
  try {
    why = untrustedFolder(dir, fs.lstatSync(dir), uid);
  } catch (error) {
    why = `socket folder ${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  if (why === undefined) return;
  throw new KiokuError(
    'REFUSED',
    `will not serve the hook socket: ${why}, so another user could put their own socket in its place and read every prompt`,
    {
      path: dir,
      hint: remedy(dir, uid),
    },
  );
}

function remedy(dir: string, uid: number): string {
  const elsewhere = 'or set XDG_RUNTIME_DIR to a folder of your own with mode 700';
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    return `create ${dir} as a folder of your own with mode 700, ${elsewhere}`;
  }
  if (stat.isDirectory() && stat.uid === uid) return `if nobody else should write there, run \`chmod 700 ${dir}\`; ${elsewhere}`;
  return `remove ${dir} (it is not a folder of yours; its owner or root can remove it), ${elsewhere}`;
}
