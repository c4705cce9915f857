import { formatLocalDate, parseLooseDate, parseStrictDate } from '../../platform/config/clock.js';

/**
 * What a temporary grant's `expires` is bound to (MEM-8, seed 000 §臨時授權會過期; issue 12):
 *
 * - a **date** (`2026-04-13`, `2026-04-13T18:00+08:00`): strict shapes only (memory-expiry.ts);
 * - the **session** it was granted in (「本工作階段」, 「這次」, "this session"…). Capture writes
 *   `本工作階段（session <id>，<local day> 授權）`: the session id and the day are kept inside the
 *   `expires` text itself, because that one field is what every planner (local, LLM) already
 *   carries from an inbox item to the memory it creates; a separate frontmatter key would be
 *   lost on the way to `important/`;
 * - a **condition** text (「這個 PR 合併或關閉後失效」): only the role can judge it; it is shown
 *   with the day it was granted.
 *
 * A session grant must never be read in another session as "this session" (the bug of issue 12:
 * a one-time `force push` came back every day labelled 有效範圍：本工作階段). So:
 *
 * - **Loads never inject a session grant** (SessionStart, a call by name, the inbox block): a load
 *   starts a session or hands it to another role, and the grant belongs to the conversation it
 *   was said in, which still holds the words while that session lasts (a compaction re-injects
 *   the snapshot frozen before the grant, CTX-10). Failing closed costs the user one repeat of a
 *   permission; failing open costs an unasked force push.
 * - **Everywhere else** (forgetting, recall, the index), where no session is current, the
 *   session is taken to be over once the **local day it was granted in has ended**: then the
 *   grant is expired, and expired memories are forgotten first whatever their category. A
 *   working session very rarely outlives its day (the sleep window 22:00–06:00 loads no persona
 *   at all), and the files of seed 000's scripts (`expires: 本工作階段` with no session id) are
 *   read by the same rule with their `created` day, so they load unchanged and lapse the day
 *   after. A session grant with neither a day nor a readable `created` is expired at once.
 */

/** The words of a session-scoped `expires` (zh-TW, zh-CN, English, as condensers write them). */
const SESSION_SCOPE = /工作階段|工作阶段|會話|会话|本次|這次|这次|這一次|this session|current session|this conversation|this time/i;
/** `session <id>` as capture writes it; an id has a digit, so "this session only" names none. */
const SESSION_ID = /session[\s=:：]+(?=[^\s，,）)]*\d)([A-Za-z0-9][A-Za-z0-9._:-]{0,127}?)(?=[\s，,）)]|$)/i;
const DAY = /(\d{4})-(\d{2})-(\d{2})/;
const DAY_ALL = /\d{4}-\d{2}-\d{2}/g;

export interface SessionGrant {
  sessionId?: string;
  /** `yyyy-MM-dd`, the local day it was granted in (from the text, else the memory's created). */
  grantedDay?: string;
}

/** The session grant an `expires` names, or undefined for a date, a condition text or none. */
export function sessionGrantOf(memory: { expires: string; created?: string }): SessionGrant | undefined {
  const expires = memory.expires.trim();
  if (!expires || parseStrictDate(expires) || !SESSION_SCOPE.test(expires)) return undefined;
  const id = SESSION_ID.exec(expires)?.[1];
  // The last day written: a session id may hold a date of its own (Codex: rollout-2026-04-09T…).
  const written = expires.match(DAY_ALL)?.at(-1);
  const created = parseLooseDate(memory.created);
  const grantedDay = written ?? (created ? formatLocalDate(created) : undefined);
  return { ...(id ? { sessionId: id } : {}), ...(grantedDay ? { grantedDay } : {}) };
}

export function isSessionGrant(memory: { expires: string }): boolean {
  return sessionGrantOf(memory) !== undefined;
}

/** The start of the local day after `day` (yyyy-MM-dd): when a grant of that day has lapsed. */
export function endOfLocalDay(day: string): Date | undefined {
  const parsed = parseStrictDate(day);
  if (!parsed) return undefined;
  const { date } = parsed;
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1);
}

/** When a session grant has lapsed where no session is current (forget, recall, index). */
export function sessionGrantEnd(grant: SessionGrant): Date {
  return (grant.grantedDay && endOfLocalDay(grant.grantedDay)) || new Date(0);
}

/**
 * A condition text with the day it was granted, for the load's scope label: the text itself when
 * it names a day already, else the memory's created day added.
 */
export function conditionWithGrantDay(memory: { expires: string; created?: string }, language: 'zh' | 'en'): string {
  const expires = memory.expires.trim();
  if (DAY.test(expires)) return expires;
  const created = parseLooseDate(memory.created);
  if (!created) return expires;
  return language === 'zh' ? `${expires}（${formatLocalDate(created)} 授權）` : `${expires} (granted ${formatLocalDate(created)})`;
}

/** How recall tells a live temporary grant (MEM-8): never as a standing rule, a session's never as this one's. */
export function grantNote(grant: { kind: 'session' | 'until' | 'condition'; expires: string }): string {
  switch (grant.kind) {
    case 'session':
      return `臨時授權，只在授權當時的那個工作階段有效，不適用於目前的工作階段 (a one-time grant of another session): ${grant.expires}`;
    case 'until':
      return `臨時授權，有效至 (temporary, until) ${grant.expires}`;
    case 'condition':
      return `臨時授權，有效範圍 (temporary, scope) ${grant.expires}`;
  }
}
