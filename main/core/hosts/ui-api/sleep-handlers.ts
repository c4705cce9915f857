import type { DigestDetail, DigestView, SleepHistory, SleepRunView, UiParsedRequest } from '../../../../common/ui-contract.js';
import { formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { readDigests } from '../../store/memory/digests.js';
import { readMemoryState } from '../../store/memory/memory-state.js';
import { readDigestDetail, type MemoryNow } from '../../engine/sleep/digest-detail.js';
import { runSleepInWorker } from '../../engine/sleep/run-in-worker.js';
import type { SleepResult } from '../../engine/sleep/sleep-result.js';
import type { WorkerRunOptions } from '../../engine/sleep/sleep-worker-protocol.js';

/**
 * The sleep history view: DIGESTS.md (MEM-10, seed 000 §整理摘要保留歷史 — kept "for people to
 * look back on", never injected) and "Sleep now".
 */

/** Runs one consolidation and reports CLI.md's `sleep --json` shape. Hosts and tests may give their own. */
export type SleepRunner = (options: WorkerRunOptions) => Promise<SleepResult>;

/** The default: the consolidation worker thread, as the daemon's schedule runs it (run-in-worker.ts). */
export function workerSleepRunner(config: KiokuConfig): SleepRunner {
  return (options) => runSleepInWorker({ env: config.env }, options);
}

/** `yyyy/MM/dd HH:mm[:ss]` as written → ISO with the local offset, or null when it cannot be read. */
export function isoOrNull(time: string): string | null {
  const date = parseLooseDate(time);
  return date ? formatLocalIso(date) : null;
}

export function sleepHistory(config: KiokuConfig, request: UiParsedRequest<'sleep.history'>): SleepHistory {
  const digests: DigestView[] = readDigests(config.paths.memoryHome, request.role, request.count).map((entry) => ({
    time: entry.time,
    at: isoOrNull(entry.time),
    summary: entry.summary,
    applied: entry.applied,
    ...(entry.record ? { record: entry.record } : {}),
    ...(entry.reason ? { reason: entry.reason } : {}),
  }));
  const lastSleep = readMemoryState(config.paths.memoryHome, request.role).state.last_sleep;
  return { role: request.role, digests, lastSleep: lastSleep ? isoOrNull(lastSleep) : null };
}

/** One digest opened into its memories (digest-detail.ts); `memory` is the UI's memory look-up. */
export function sleepDigest(config: KiokuConfig, request: UiParsedRequest<'sleep.digest'>, memory: MemoryNow): DigestDetail {
  return readDigestDetail(config.paths.memoryHome, request.role, request.record, memory);
}

/**
 * "Sleep now" from the UI: the user asked, so the sleep window does not apply (`kioku sleep
 * --force`); without a role, the roles a manual run takes (run-sleep.ts: ROLE_NAME, else every
 * role). A role whose memories another run is consolidating reports `busy` rather than waiting.
 */
export async function runSleepFromUi(request: UiParsedRequest<'sleep.run'>, run: SleepRunner): Promise<SleepRunView> {
  const result = await run({ reason: 'manual', force: true, ...(request.role ? { role: request.role } : {}) });
  return {
    roles: result.roles.map((role) => ({
      id: role.id,
      ok: role.ok,
      processed: role.processed,
      created: role.created,
      merged: role.merged,
      discarded: role.discarded,
      forgotten: role.forgotten,
      left: role.left,
      ...(role.error ? { error: role.error } : {}),
      ...(role.planner ? { planner: role.planner } : {}),
      ...(role.busy ? { busy: true } : {}),
      ...(role.warnings?.length ? { warnings: role.warnings } : {}),
    })),
    ...(result.awake ? { awake: true } : {}),
  };
}
