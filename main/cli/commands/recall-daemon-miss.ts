/**
 * How long `memory recall` waits for the daemon's answer before recalling here. Its first recall
 * opens the index (and on a new one reads every file), so this is generous; a daemon that is
 * merely slow and answers later writes nothing back, since its answer was not received.
 */
export const DAEMON_RECALL_WAIT_MS = 10_000;

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
