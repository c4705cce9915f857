import type { HookCall, SpoolRecord } from '../../../common/hook-protocol.js';
import { loadConfig } from '../config/config.js';
import type { Logger } from '../config/log.js';
import type { AnswerHandler, QueuedHandler } from '../daemon/daemon.js';
import { answerHookCall } from './answer-hook-call.js';
import type { HookContext } from './hook-handler.js';
import { handleQueuedCall } from './handle-queued-call.js';

/**
 * The daemon's two handlers over the shared hook code. Each call is answered with the settings
 * of the terminal that fired it (ROLE_NAME may differ per terminal, seed 000 §環境變數), on top of
 * the daemon's own environment; the memory home is the daemon's, since the socket belongs to it.
 */
export function createDaemonHookHandlers(baseEnv: NodeJS.ProcessEnv, logger: Logger): { handleHook: AnswerHandler; handleQueued: QueuedHandler } {
  const contextFor = (call: Pick<HookCall, 'env'>): HookContext => {
    const env = { ...baseEnv, ...call.env, ROLE_MEMORY_HOME: baseEnv.ROLE_MEMORY_HOME, HOME: baseEnv.HOME };
    return { config: loadConfig(env), logger, host: 'daemon' };
  };
  return {
    handleHook: async (call) => ({ stdout: answerHookCall(contextFor(call), call) }),
    handleQueued: async (record: SpoolRecord) => handleQueuedCall(contextFor(record), record),
  };
}
