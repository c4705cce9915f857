import { loadConfig } from '../../main/core/platform/config/config.js';
import { runSleep } from '../../main/core/engine/sleep/run-sleep.js';
import { ROLE, scriptedPlanner } from './sleep-fixtures.js';

/**
 * One consolidation in a real process, for consolidation-kill.test.ts: prints `ready` when the
 * work starts (so the test's random kill lands in the work, not in Node's start-up), then the
 * result as JSON.
 */
const config = loadConfig(process.env);
process.stdout.write('ready\n');
const result = await runSleep(config, { role: ROLE, force: true, reason: 'manual', planner: scriptedPlanner(), lockWaitMs: 10_000 });
process.stdout.write(`${JSON.stringify(result)}\n`);
