import path from 'node:path';
import type { HookCall } from '../common/hook-protocol.js';
import type { KiokuConfig } from '../main/core/platform/config/config.js';
import type { Logger } from '../main/core/platform/config/log.js';
import { adapterFor } from '../main/core/integrations/assistants/adapters.js';
import { answerHookCall } from '../main/core/hosts/hook-handlers/answer-hook-call.js';
import type { SessionStartOptions } from '../main/core/hosts/hook-handlers/session-start-handler.js';
import { writeSpoolRecord } from '../main/core/platform/ipc/spool-writer.js';
import { releaseSessionLocks } from '../main/core/store/sessions/session-end.js';
import { resolveSessionRole } from '../main/core/store/sessions/session-role.js';
import { ownBundleStamp } from '../main/core/platform/fs/own-dir.js';
import { parsedRolesFile } from '../main/core/store/roles/parsed-roles-file.js';
import { keepRoleParses } from '../main/core/store/roles/role-repository.js';

/**
 * What the hook client does when the daemon does not answer (HOOK-5): answer from the files with
 * the very code the daemon runs, and spool what needs the app (condensing) for it to ingest once,
 * in order, when it starts. Loaded only on this path, so the usual case stays small.
 */
export function answerFromFiles(config: KiokuConfig, logger: Logger, call: HookCall, options: SessionStartOptions): string {
  // A process per event: the roles it reads are parsed once between processes, not in each.
  const code = ownBundleStamp();
  if (code) keepRoleParses(parsedRolesFile(path.join(config.paths.stateDir, 'cache', 'parsed-roles.json'), code));
  return answerHookCall({ config, logger, host: 'fallback' }, call, options);
}

/**
 * The session's role now (issue 13): recorded with the event, because whoever ingests it later
 * — the app, a daemon, or `kioku sleep` from cron — may run days later, when the session has
 * called another role since, or its `.role` file and role history were swept as idle; it would
 * then file a called role's turns under another one. Ingestion prefers the role history at the
 * reply's place in the transcript, and uses this when the history cannot say (handle-queued-call.ts).
 */
function roleAtHookTime(config: KiokuConfig, logger: Logger, call: HookCall): string | undefined {
  try {
    return resolveSessionRole(config, adapterFor(call.assistant).parseEvent(call.event, call.payload, config.clock.now()))?.id;
  } catch (error) {
    logger.warn('hook', `${call.event}: the role is resolved when the event is ingested (${(error as Error).message})`);
    return undefined;
  }
}

export function spoolForLater(config: KiokuConfig, logger: Logger, call: HookCall): void {
  writeSpoolRecord(config.paths.spoolDir, call, 'hook', config.clock.now(), roleAtHookTime(config, logger, call));
  if (call.event === 'session-end') {
    // Released now, not when the app next starts: the next session must be able to take the role.
    const event = adapterFor(call.assistant).parseEvent(call.event, call.payload, config.clock.now());
    const released = releaseSessionLocks(config, event);
    logger.info('hook', `session-end without the app: released ${released.released.length} lock(s)`);
  }
}
