import fs from 'node:fs';
import path from 'node:path';

/**
 * Is the socket one only this user could have put there? Every client asks before it sends its
 * token and the user's prompt (issue 14).
 * Design notes: docs/design-notes.md, "main/core/platform/ipc/socket-trust.ts".
 */
export type SocketTrust = { ok: true } | { ok: false; missing: true } | { ok: false; missing: false; why: string };

const OTHERS_WRITE = 0o022;

export function checkSocketTrust(socketPath: string): SocketTrust {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return { ok: true };
  const uid = process.getuid();
  const dir = path.dirname(socketPath);
  try {
    const folder = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!folder) return { ok: false, missing: true };
    const folderWhy = untrustedFolder(dir, folder, uid);
    if (folderWhy) return { ok: false, missing: false, why: folderWhy };
    const socket = fs.lstatSync(socketPath, { throwIfNoEntry: false });
    if (!socket) return { ok: false, missing: true };
    if (socket.uid !== uid)
      return { ok: false, missing: false, why: `socket ${socketPath} belongs to uid ${socket.uid}, not to you (uid ${uid})` };
    return { ok: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return { ok: false, missing: true };
    return { ok: false, missing: false, why: `cannot check socket ${socketPath} (${code ?? (error as Error).message})` };
  }
}

/** Why a socket folder cannot be trusted, or undefined when only `uid` can write into it. */
export function untrustedFolder(dir: string, stat: fs.Stats, uid: number): string | undefined {
  if (stat.isSymbolicLink()) return `socket folder ${dir} is a symbolic link`;
  if (!stat.isDirectory()) return `socket folder ${dir} is not a folder`;
  if (stat.uid !== uid) return `socket folder ${dir} belongs to uid ${stat.uid}, not to you (uid ${uid})`;
  if ((stat.mode & OTHERS_WRITE) !== 0) return `socket folder ${dir} can be written by others (mode ${(stat.mode & 0o7777).toString(8)})`;
  return undefined;
}
