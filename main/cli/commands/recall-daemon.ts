import { formatLocalIso } from '../../core/platform/config/clock.js';
import type { KiokuConfig } from '../../core/platform/config/config.js';
import { requestRecall } from '../../core/platform/ipc/recall-request.js';

/**
 * How long `memory recall` waits for the daemon's answer before recalling here. Its first recall
 * opens the index (and on a new one reads every file), so this is generous; a daemon that is
 * merely slow and answers later writes nothing back, since its answer was not received.
 */
const DAEMON_RECALL_WAIT_MS = 10_000;

/** `memory recall` asked of the daemon, with this process's clock (its `last_replayed` is ours). */
export function askDaemon(config: KiokuConfig, query: { role: string; query: string; limit: number; project: string | undefined }) {
  const now = config.clock.now();
  const { paths } = config;
  return requestRecall(
    paths,
    {
      memoryHome: paths.memoryHome,
      role: query.role,
      query: query.query,
      limit: query.limit,
      nowMs: now.getTime(),
      replayedAt: formatLocalIso(now),
      ...(query.project ? { project: query.project } : {}),
    },
    DAEMON_RECALL_WAIT_MS,
  );
}

/**
 * A daemon that the fast path (recall-fast.ts) asked and that did not answer, handed to the full
 * command in the same process so that it does not wait for it a second time. On the global
 * object: the fast path is a bundle of its own, with its own copy of this module.
 */
const MISS = Symbol.for('kioku.recall.daemon-miss');
type Miss = { reason: string; detail: string };

export function rememberDaemonMiss(reason: string, detail: string): void {
  (globalThis as Record<symbol, unknown>)[MISS] = { reason, detail } satisfies Miss;
}

/** The miss the fast path recorded, once. */
export function takeDaemonMiss(): Miss | undefined {
  const holder = globalThis as Record<symbol, unknown>;
  const miss = holder[MISS] as Miss | undefined;
  delete holder[MISS];
  return miss;
}
