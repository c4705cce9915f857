import { loadConfig } from '../../main/core/config/config.js';
import { claimRole } from '../../main/core/sessions/role-locks.js';

/**
 * One contender of the lock race test: waits until the shared start time, then claims the role
 * for its own session and prints the result as JSON. argv: roleId sessionId transcriptPath startAtMs.
 */
const [roleId = '', sessionId = '', transcriptPath = '', startAt = '0'] = process.argv.slice(2);
while (Date.now() < Number(startAt)) {
  /* spin: every contender leaves this loop within the same millisecond or so */
}
const result = claimRole(loadConfig(process.env), roleId, { assistant: 'claude', sessionId, transcriptPath });
process.stdout.write(`${JSON.stringify({ sessionId, ok: result.ok, how: result.ok ? result.how : undefined })}\n`);
