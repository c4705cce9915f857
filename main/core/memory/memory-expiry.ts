import type { Memory } from '../../../common/memory.js';
import { parseStrictDate } from '../config/clock.js';

/**
 * MEM-8, seed 000 §臨時授權會過期: `expires` is either a date (after it the memory is not
 * injected and is forgotten first, whatever its category) or a condition text (「本工作階段」,
 * 「PR 合併後失效」) that only the role can judge. Only the strict date shapes of parseStrictDate
 * count as dates (`2026/12/01`, `2026-12-01 10:00`, `2026/12/01T10:00Z`,
 * `2026-12-01T10:00:00+08:00`…): `new Date()` alone would read some condition texts as dates and
 * forget a memory by accident.
 */

/** The moment a date `expires` runs out, or undefined for a condition text or none. */
export function expiryTime(expires: string): Date | undefined {
  const parsed = parseStrictDate(expires);
  if (!parsed) return undefined;
  const { date } = parsed;
  // A bare date is valid through that whole local day ("今天" → today's date, MEM-8).
  if (parsed.dateOnly) return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1);
  return date;
}

export function isExpired(memory: Pick<Memory, 'expires'>, now: Date): boolean {
  const time = expiryTime(memory.expires);
  return time !== undefined && now.getTime() >= time.getTime();
}
