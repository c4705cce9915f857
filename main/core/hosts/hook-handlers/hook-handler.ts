import type { HookEvent, HookResult } from '../../../../common/hook-events.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import type { MemoryCache } from '../../store/memory/memory-cache.js';

/**
 * What every event handler gets. Handlers run in the daemon and in the hook client's fallback
 * (HOOK-5), so they must not import anything heavy (SQLite, sharp, secretlint, opencc).
 * Design notes: docs/design-notes.md, "main/core/hosts/hook-handlers/hook-handler.ts".
 */
export interface HookContext {
  config: KiokuConfig;
  logger: Logger;
  /** Where the handler runs: in the daemon, or in the hook client because the daemon did not answer. */
  host: 'daemon' | 'fallback';
  /** Parsed memories kept between events (the daemon's); the fallback reads the files each time. */
  memories?: MemoryCache;
  /**
   * Runs work the answer does not need after it has been sent (the daemon: on the next turn of its
   * event loop). Absent in the fallback, whose process ends with the answer: the work runs in place.
   */
  afterAnswer?: (task: () => void) => void;
}

/** Work the answer does not need: after it where the host has an "after", in place otherwise. */
export function afterTheAnswer(ctx: HookContext, task: () => void): void {
  if (ctx.afterAnswer) ctx.afterAnswer(task);
  else task();
}

export type HookHandler = (ctx: HookContext, event: HookEvent) => HookResult | Promise<HookResult>;
