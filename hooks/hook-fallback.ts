import type { HookCall } from '../common/hook-protocol.js';
import type { KiokuConfig } from '../main/core/config/config.js';
import type { Logger } from '../main/core/config/log.js';
import { adapterFor } from '../main/core/assistants/adapters.js';
import { answerHookCall } from '../main/core/hook-handlers/answer-hook-call.js';
import type { SessionStartOptions } from '../main/core/hook-handlers/session-start-handler.js';
import { writeSpoolRecord } from '../main/core/ipc/spool-writer.js';
import { releaseSessionLocks } from '../main/core/sessions/session-end.js';

/**
 * What the hook client does when the daemon does not answer (HOOK-5): answer from the files with
 * the very code the daemon runs, and spool what needs the app (condensing) for it to ingest once,
 * in order, when it starts. Loaded only on this path, so the usual case stays small.
 */
export function answerFromFiles(config: KiokuConfig, logger: Logger, call: HookCall, options: SessionStartOptions): string {
  return answerHookCall({ config, logger, host: 'fallback' }, call, options);
}

export function spoolForLater(config: KiokuConfig, logger: Logger, call: HookCall): void {
  writeSpoolRecord(config.paths.spoolDir, call, 'hook', config.clock.now());
  if (call.event === 'session-end') {
    // Released now, not when the app next starts: the next session must be able to take the role.
    const event = adapterFor(call.assistant).parseEvent(call.event, call.payload, config.clock.now());
    const released = releaseSessionLocks(config, event);
    logger.info('hook', `session-end without the app: released ${released.released.length} lock(s)`);
  }
}
