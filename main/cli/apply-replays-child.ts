import path from 'node:path';
import { loadConfig } from '../core/platform/config/config.js';
import { createLogger } from '../core/platform/config/log.js';
import { applyReplayQueue } from '../core/store/index/apply-replay-queue.js';
import { openMemoryIndex } from '../core/store/index/memory-index.js';

/**
 * `node dist/cli-fast/apply-replays.js <role>`: a role's queued recall hits written into its
 * files and the index, in a process of its own (replay-applier.ts starts it, detached, with the
 * recall's environment). Nobody reads its output: what it meets goes to kioku.log.
 */
function applyQueue(role: string): void {
  const config = loadConfig(process.env);
  const logger = createLogger({
    clock: config.clock,
    file: path.join(config.paths.logsDir, 'kioku.log'),
    stderr: false,
    errlog: config.settings.ROLE_ERRLOG,
  });
  try {
    const index = openMemoryIndex(config.paths, logger);
    try {
      const problems = applyReplayQueue(index, role);
      for (const problem of problems) logger.warn('recall', `${problem.path}: ${problem.message}`);
      logger.info('recall', `queued hits of ${role} written back (pid ${process.pid})`);
    } finally {
      index.close();
    }
  } catch (error) {
    logger.error('recall', `queued hits of ${role} not written back: ${(error as Error).message}; the next long queue tries again`);
  }
}

const role = process.argv[2];
if (role) applyQueue(role);
