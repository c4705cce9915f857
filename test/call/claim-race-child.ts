import { loadConfig } from '../../main/core/platform/config/config.js';
import { claimRole } from '../../main/core/store/sessions/role-locks.js';

/**
 * One contender of the lock race test. It loads everything, says `ready` on stdout, then waits
 * for the start barrier: the parent writes one byte to every contender's stdin once all of them
 * are ready. Then it claims the role for its own session and prints the result as JSON.
 * argv: roleId sessionId transcriptPath.
 *
 * It never spins and never waits forever: stdin closing without the byte (the parent is gone) or
 * no byte within BARRIER_DEADLINE_MS ends it with exit code 3.
 */
const BARRIER_DEADLINE_MS = 60_000;
const [roleId = '', sessionId = '', transcriptPath = ''] = process.argv.slice(2);
const config = loadConfig(process.env);

const giveUp = (why: string) => {
  process.stderr.write(`claim-race-child ${sessionId}: ${why}\n`);
  process.exit(3);
};
const deadline = setTimeout(() => giveUp(`no start signal within ${BARRIER_DEADLINE_MS} ms`), BARRIER_DEADLINE_MS);
process.stdin.once('data', () => {
  clearTimeout(deadline);
  process.stdin.destroy();
  const result = claimRole(config, roleId, { assistant: 'claude', sessionId, transcriptPath });
  process.stdout.write(`${JSON.stringify({ sessionId, ok: result.ok, how: result.ok ? result.how : undefined })}\n`);
});
process.stdin.once('end', () => giveUp('stdin closed before the start signal'));
process.stdout.write('ready\n');
