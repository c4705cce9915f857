import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import type { MemoryCache } from '../../store/memory/memory-cache.js';
import type { HookContext } from './hook-handler.js';
import { RACY_MS } from '../../engine/context/prepared-load-stamps.js';
import { warmRoleLoad } from './load-role-context.js';
import { persistPreparedLoad } from './persist-prepared-load.js';

/**
 * Keeps each role's next load ready in the daemon (X-PERF): after the memory files change, the
 * memory part of the load is prepared in idle time instead of while the user waits.
 * Design notes: docs/design-notes.md, "main/core/hosts/hook-handlers/load-warmer.ts".
 */
export interface LoadWarmer {
  /** A watcher saw this role's files change: warm it once the burst is over. */
  soon(roleId: string): void;
  /** Warm every role held in the cache, now (after the daemon wrote memories itself). */
  now(): void;
  /** The settings of the latest event: the next one most likely comes from the same terminal. */
  remember(config: KiokuConfig): void;
  /** Warms and writes still waiting for their time: work the daemon has set itself (its status shows it). */
  pending(): number;
  close(): void;
}

/** A sleep or an import writes hundreds of files in a burst; warm once it has settled. */
const SETTLE_MS = 150;
/** The prepared load on disk waits until the files' time stamps can tell a later change (prepared-load-stamps.ts). */
const PERSIST_MS = RACY_MS + 200;
const PERSIST_TRIES = 5;

export function createLoadWarmer(memories: MemoryCache, base: KiokuConfig, logger: Logger): LoadWarmer {
  let config = base;
  const timers = new Map<string, NodeJS.Timeout>();
  const persistTimers = new Map<string, NodeJS.Timeout>();
  // Issue 17: the warm load also goes to disk, for a hook that later finds no daemon.
  const persistSoon = (roleId: string, tries: number) => {
    const pending = persistTimers.get(roleId);
    if (pending) clearTimeout(pending);
    const timer = setTimeout(() => {
      persistTimers.delete(roleId);
      try {
        if (persistPreparedLoad({ config, logger, host: 'daemon', memories }, roleId) === 'later' && tries > 1)
          persistSoon(roleId, tries - 1);
      } catch (error) {
        logger.info('daemon', `writing the prepared load of ${roleId}: ${(error as Error).message}`);
      }
    }, PERSIST_MS);
    timer.unref();
    persistTimers.set(roleId, timer);
  };
  const warm = (roleId: string) => {
    const pending = timers.get(roleId);
    if (pending) clearTimeout(pending);
    timers.delete(roleId);
    const ctx: HookContext = { config, logger, host: 'daemon', memories };
    try {
      if (warmRoleLoad(ctx, roleId)) persistSoon(roleId, PERSIST_TRIES);
    } catch (error) {
      // Only a head start: the event itself reads the same files and reports what is wrong.
      logger.info('daemon', `preparing the load of ${roleId} ahead: ${(error as Error).message}`);
    }
  };
  return {
    soon(roleId) {
      const pending = timers.get(roleId);
      if (pending) clearTimeout(pending);
      const timer = setTimeout(() => warm(roleId), SETTLE_MS);
      timer.unref();
      timers.set(roleId, timer);
    },
    now() {
      for (const roleId of memories.roles()) warm(roleId);
    },
    remember(latest) {
      config = latest;
    },
    pending: () => timers.size + persistTimers.size,
    close() {
      for (const timer of [...timers.values(), ...persistTimers.values()]) clearTimeout(timer);
      timers.clear();
      persistTimers.clear();
    },
  };
}
