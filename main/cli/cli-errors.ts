import { describeError, exitCodeFor, isKiokuError } from '../../common/errors.js';

/**
 * File-system failures are the user's environment, not a Kioku bug: say which path and what to
 * do instead of "unexpected error".
 */
const FS_ERRORS: Record<string, { what: string; hint: string }> = {
  EACCES: { what: 'permission denied', hint: 'check the owner and permissions of that path (ls -l)' },
  EPERM: { what: 'operation not permitted', hint: 'check the owner and permissions of that path (ls -l)' },
  EROFS: { what: 'the file system is read-only', hint: 'point ROLE_HOME / ROLE_MEMORY_HOME at a writable folder' },
  ENOSPC: { what: 'the disk is full', hint: 'free some space; nothing was half-written (writes are atomic)' },
  EDQUOT: { what: 'the disk quota is exceeded', hint: 'free some space; nothing was half-written (writes are atomic)' },
  ENOTDIR: { what: 'a part of the path is a file, not a folder', hint: 'check ROLE_HOME / ROLE_MEMORY_HOME and the path given' },
  EISDIR: { what: 'it is a folder, not a file', hint: 'give the path of a file' },
  ENOENT: { what: 'no such file or folder', hint: 'check the path' },
  EMFILE: { what: 'too many open files', hint: 'raise the open-file limit (ulimit -n) and try again' },
};

function fsErrorOf(error: unknown): { code: string; path?: string; syscall?: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path, syscall } = error as NodeJS.ErrnoException;
  return code && code in FS_ERRORS ? { code, path, syscall } : undefined;
}

/**
 * Turn anything thrown into what a user can act on: `kioku: <what was wrong>` and, on the next
 * line, what to do. Unexpected errors get one line and a pointer to the log, never a stack
 * (KIOKU_DEBUG=1 shows it for developers).
 */
export function reportCliError(error: unknown, stderr: (text: string) => void, env: NodeJS.ProcessEnv = process.env): number {
  const fsError = fsErrorOf(error);
  if (isKiokuError(error)) {
    stderr(`kioku: ${error.message}\n`);
    if (error.hint) stderr(`  → ${error.hint}\n`);
  } else if (fsError) {
    const known = FS_ERRORS[fsError.code]!;
    const where = fsError.path ? ` ${fsError.path}` : '';
    stderr(`kioku: cannot ${fsError.syscall ?? 'use'}${where}: ${known.what} (${fsError.code})\n`);
    stderr(`  → ${known.hint}\n`);
  } else {
    stderr(`kioku: unexpected error: ${describeError(error)}\n`);
    stderr('  → this is a bug in Kioku; run again with KIOKU_DEBUG=1 for details and report it\n');
  }
  if (env.KIOKU_DEBUG === '1' && error instanceof Error && error.stack) stderr(`${error.stack}\n`);
  return exitCodeFor(error);
}
