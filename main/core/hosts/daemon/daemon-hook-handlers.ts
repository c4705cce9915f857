import type { HookCall, SpoolRecord } from '../../../../common/hook-protocol.js';
import { loadConfig, type KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { fileStamp } from '../../platform/fs/file-stamp.js';
import type { AnswerHandler, QueuedHandler } from './daemon.js';
import { createMemoryCache } from '../../store/memory/memory-cache.js';
import { resolveCurrentRole } from '../../store/roles/role-active.js';
import { answerHookCall } from '../hook-handlers/answer-hook-call.js';
import { createLoadWarmer } from '../hook-handlers/load-warmer.js';
import type { HookContext } from '../hook-handlers/hook-handler.js';
import { handleQueuedCall } from '../hook-handlers/handle-queued-call.js';

export interface DaemonHookHandlers {
  handleHook: AnswerHandler;
  handleQueued: QueuedHandler;
  /** The capture queue handled a burst of events: prepare the next loads (load-warmer.ts). */
  afterQueueDrained(): void;
  /** Next loads waiting to be prepared or written to disk (load-warmer.ts): the daemon's own work in hand. */
  backgroundPending(): number;
  /** Stop watching the memory folders (the daemon is stopping). */
  close(): void;
}

/**
 * The daemon's two handlers over the shared hook code. Each call is answered with the settings
 * of the terminal that fired it (ROLE_NAME may differ per terminal, HOOK-4), on top of
 * the daemon's own environment; the memory home is the daemon's, since the socket belongs to it —
 * which is also why one memory cache serves every call (memory-cache.ts: parsed memories kept
 * between events, so a SessionStart does not re-read thousands of files).
 */
export interface DaemonHookOptions {
  /**
   * Called after a SessionStart has been answered, with that terminal's config: the scheduler's
   * catch-up trigger (CTX-8). Never delays or changes the answer; the hook client's fallback has
   * no such call (the next daemon start checks every role once instead).
   */
  onSessionStart?: (config: KiokuConfig) => void;
}

export function createDaemonHookHandlers(baseEnv: NodeJS.ProcessEnv, logger: Logger, options: DaemonHookOptions = {}): DaemonHookHandlers {
  const base = loadConfig(baseEnv);
  // Watcher callbacks come from the event loop, never while the cache is being created.
  // A role read for the first time (at start, or first asked for) has its load prepared right after.
  const memories = createMemoryCache(base.paths.memoryHome, {
    onChange: (roleId) => warmer.soon(roleId),
    onWarmed: (roleId) => warmer.soon(roleId),
  });
  const warmer = createLoadWarmer(memories, base, logger);
  // The last terminal's config, while its settings and the settings file are the same: most
  // events come from one terminal, and resolving a config was 0.2 ms of each (daemon profile).
  let last: { key: string; config: KiokuConfig } | undefined;
  const contextFor = (call: Pick<HookCall, 'env'>): HookContext => {
    const env = { ...baseEnv, ...call.env, ROLE_MEMORY_HOME: baseEnv.ROLE_MEMORY_HOME, HOME: baseEnv.HOME };
    const key = `${JSON.stringify(call.env ?? {})}\n${fileStamp(base.paths.settingsFile) ?? 'none'}`;
    const config = last?.key === key ? last.config : loadConfig(env);
    last = { key, config };
    warmer.remember(config);
    // setImmediate: right after this request's reply is written (the server writes it in the
    // handler's promise chain). The session's next event comes from a later hook process.
    return { config, logger, host: 'daemon', memories, afterAnswer: (task) => setImmediate(task) };
  };
  // The role most likely asked for first is the current one: parse its files now, in slices that
  // leave the socket responsive, rather than during the first SessionStart.
  setImmediate(() => {
    let roleId: string | undefined;
    try {
      roleId = resolveCurrentRole(base)?.id;
    } catch {
      return; // a broken ROLE_NAME/.active: the first event reports it
    }
    if (!roleId) return;
    memories
      .warm(roleId)
      .catch((error: unknown) => logger.warn('daemon', `warming the memories of ${roleId}: ${(error as Error).message}`));
  });
  return {
    handleHook: async (call) => {
      const ctx = contextFor(call);
      const stdout = answerHookCall(ctx, call);
      const onSessionStart = options.onSessionStart;
      if (onSessionStart && call.event === 'session-start') {
        setImmediate(() => {
          try {
            onSessionStart(ctx.config);
          } catch (error) {
            logger.warn('daemon', `after session-start: ${(error as Error).message}`);
          }
        });
      }
      return { stdout };
    },
    handleQueued: async (record: SpoolRecord) => handleQueuedCall(contextFor(record), record),
    // Captures wrote memories: the next SessionStart should not be the one to sort them in. Once
    // per burst (400 events spooled while the daemon was down are one burst), and still inside
    // the queue's busy time, so that `status` says idle only when the load is ready.
    afterQueueDrained: () => warmer.now(),
    backgroundPending: () => warmer.pending() + memories.warming(),
    close: () => {
      warmer.close();
      memories.close();
    },
  };
}
