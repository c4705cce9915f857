import { describeError, exitCodeFor, isKiokuError } from '../../common/errors.js';

/**
 * Turn anything thrown into what a user can act on: `kioku: <what was wrong>` and, on the next
 * line, what to do. Unexpected errors get one line and a pointer to the log, never a stack
 * (KIOKU_DEBUG=1 shows it for developers).
 */
export function reportCliError(error: unknown, stderr: (text: string) => void, env: NodeJS.ProcessEnv = process.env): number {
  if (isKiokuError(error)) {
    stderr(`kioku: ${error.message}\n`);
    if (error.hint) stderr(`  → ${error.hint}\n`);
  } else {
    stderr(`kioku: unexpected error: ${describeError(error)}\n`);
    stderr('  → this is a bug in Kioku; run again with KIOKU_DEBUG=1 for details and report it\n');
    if (env.KIOKU_DEBUG === '1' && error instanceof Error && error.stack) stderr(`${error.stack}\n`);
  }
  return exitCodeFor(error);
}
