import { createHash } from 'node:crypto';
import { formatLocalDate, formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { updateMemoryState, type MemoryState, type PersonalMemoryConsent } from '../../store/memory/memory-state.js';

/**
 * CAP-1/CAP-6, seed 000 §關係狀態: every handed-over turn updates state.json before anything
 * else — last_activity (the nap schedule's idle clock, SLEEP-2), first_activity, active_days,
 * total_turns and positive_feedback ("正向回饋另計，不與輪數混算") — plus a consent change the
 * user stated in the turn (PRIV-3). These are "隨互動加深逐漸更親近的實際依據", so a replayed
 * spool event must not count twice: the event's key is remembered in the same locked write
 * (`capture_counted_events`, the newest 200), which makes "count" and "mark counted" one step.
 * A consent change rides in that same write for the same reason: a stale event replayed after
 * the user changed their mind again must not flip consent back.
 */
export const COUNTED_EVENTS_KEY = 'capture_counted_events';
const COUNTED_EVENTS_KEPT = 200;

export interface TurnActivity {
  eventId: string;
  /** When the turn happened (the hook's receivedAt), not when it is handled. */
  at: Date;
  /** Stop turns count; a PreCompact capture re-reads turns Stop already counted. */
  countsAsTurn: boolean;
  positiveFeedback: boolean;
  consent?: PersonalMemoryConsent;
}

export interface ActivityResult {
  state: MemoryState;
  /** False when this event had been counted before (a replay): nothing changed. */
  counted: boolean;
}

export function eventKey(eventId: string): string {
  return createHash('sha256').update(eventId).digest('hex').slice(0, 16);
}

function countedEvents(state: MemoryState): string[] {
  const raw = state.other[COUNTED_EVENTS_KEY];
  return Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Distinct local days, kept without a list of days: a turn on a later local day than the last
 * activity opens a new day. Events arrive in order (queue, then spool in order, ARCHITECTURE);
 * a late event from an earlier day cannot tell whether its day was counted, so it adds none.
 */
export function applyActivity(state: MemoryState, activity: TurnActivity): MemoryState {
  const at = formatLocalIso(activity.at);
  const last = parseLooseDate(state.last_activity);
  const day = formatLocalDate(activity.at);
  const newDay = !last || state.active_days === 0 ? true : day > formatLocalDate(last);
  const first = parseLooseDate(state.first_activity);
  return {
    ...state,
    first_activity: first && first <= activity.at ? state.first_activity : at,
    last_activity: last && last > activity.at ? state.last_activity : at,
    active_days: state.active_days + (newDay ? 1 : 0),
    total_turns: state.total_turns + (activity.countsAsTurn ? 1 : 0),
    positive_feedback: state.positive_feedback + (activity.positiveFeedback ? 1 : 0),
    personal_memory_consent: activity.consent ?? state.personal_memory_consent,
  };
}

export function recordTurnActivity(config: KiokuConfig, roleId: string, activity: TurnActivity): ActivityResult {
  const key = eventKey(activity.eventId);
  let counted = false;
  const read = updateMemoryState(config.paths.memoryHome, roleId, config.clock, (state) => {
    const seen = countedEvents(state);
    if (seen.includes(key)) return state;
    counted = true;
    const next = applyActivity(state, activity);
    return { ...next, other: { ...next.other, [COUNTED_EVENTS_KEY]: [...seen, key].slice(-COUNTED_EVENTS_KEPT) } };
  });
  return { state: read.state, counted };
}
