import type { Memory } from '../../../../common/memory.js';
import { parseStrictDate } from '../../platform/config/clock.js';
import { sessionGrantEnd, sessionGrantOf } from './grant-scope.js';

/**
 * MEM-8: `expires` is either a date (after it the memory is not
 * injected and is forgotten first, whatever its category), the session it was granted in
 * (grant-scope.ts: never injected by a load; lapsed once its local day is over), or a condition
 * text (「PR 合併後失效」) that only the role can judge. Only the strict date shapes of
 * parseStrictDate count as dates (`2026/12/01`, `2026-12-01 10:00`, `2026/12/01T10:00Z`,
 * `2026-12-01T10:00:00+08:00`…): `new Date()` alone would read some condition texts as dates and
 * forget a memory by accident.
 */

/** The moment a date `expires` runs out, or undefined for a condition text or none. */
export function expiryTime(expires: string): Date | undefined {
  // Most memories have none: every load asks of every inbox item, so the common case is quick.
  if (!expires) return undefined;
  const parsed = parseStrictDate(expires);
  if (!parsed) return undefined;
  const { date } = parsed;
  // A bare date is valid through that whole local day ("今天" → today's date, MEM-8).
  if (parsed.dateOnly) return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1);
  return date;
}

type Expiring = Pick<Memory, 'expires'> & { created?: string };

/**
 * When the memory lapses where no session is current (forgetting, recall, the index): its date,
 * or the end of the local day a session grant was given in; undefined for a condition or none.
 */
export function memoryExpiryTime(memory: Expiring): Date | undefined {
  if (!memory.expires) return undefined;
  const date = expiryTime(memory.expires);
  if (date) return date;
  const grant = sessionGrantOf(memory);
  return grant ? sessionGrantEnd(grant) : undefined;
}

export function isExpired(memory: Expiring, now: Date): boolean {
  const time = memoryExpiryTime(memory);
  return time !== undefined && now.getTime() >= time.getTime();
}

/**
 * When a load (SessionStart, a call by name) must stop injecting the memory: its date; at once
 * for a session grant, which a load never injects (grant-scope.ts); undefined otherwise.
 */
export function loadExpiryTime(memory: Expiring): Date | undefined {
  if (!memory.expires) return undefined;
  const date = expiryTime(memory.expires);
  if (date) return date;
  return sessionGrantOf(memory) ? new Date(-8.64e15) : undefined;
}

/** Whether a load may inject the memory now (MEM-8, CTX-4). */
export function isInjectable(memory: Expiring, now: Date): boolean {
  const time = loadExpiryTime(memory);
  return time === undefined || now.getTime() < time.getTime();
}
