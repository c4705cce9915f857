import type { KiokuConfig } from '../../platform/config/config.js';
import { inboxCount, lastInteraction } from '../schedule/last-interaction.js';

/**
 * SLEEP-2 for `kioku nap`: the roles that may nap now — ROLE_NAP_ENABLED, at least
 * ROLE_NAP_MIN_INBOX inbox items, and idle for ROLE_NAP_IDLE_MINUTES since the last interaction
 * (the scheduler's idle clock, main/core/engine/schedule/last-interaction.ts; a role nobody has talked to
 * counts as idle). Naps ignore the sleep window ("小睡不受 ROLE_SLEEP_START／ROLE_SLEEP_END 限制").
 */
export interface NapCandidate {
  role: string;
  inbox: number;
  /** Minutes since the last interaction; undefined when there was none. */
  idleMinutes?: number;
}

export interface NapDecision {
  ready: NapCandidate[];
  /** Why each other role does not nap, for `kioku nap`'s output. */
  skipped: Array<NapCandidate & { reason: string }>;
}

export function napCandidates(config: KiokuConfig, roles: readonly string[]): NapDecision {
  const decision: NapDecision = { ready: [], skipped: [] };
  const { ROLE_NAP_MIN_INBOX: minInbox, ROLE_NAP_IDLE_MINUTES: idleMinutes } = config.settings;
  const now = config.clock.now().getTime();
  for (const role of roles) {
    const inbox = inboxCount(config, role);
    const last = lastInteraction(config, role);
    const candidate: NapCandidate = { role, inbox, ...(last ? { idleMinutes: Math.floor((now - last.at.getTime()) / 60_000) } : {}) };
    if (inbox < minInbox) decision.skipped.push({ ...candidate, reason: `inbox ${inbox} < ROLE_NAP_MIN_INBOX ${minInbox}` });
    else if (candidate.idleMinutes !== undefined && candidate.idleMinutes < idleMinutes) {
      decision.skipped.push({
        ...candidate,
        reason: `last interaction ${candidate.idleMinutes} min ago < ROLE_NAP_IDLE_MINUTES ${idleMinutes}`,
      });
    } else decision.ready.push(candidate);
  }
  return decision;
}
