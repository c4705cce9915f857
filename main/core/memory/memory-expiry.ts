import type { Memory } from '../../../common/memory.js';
import { parseLooseDate } from '../config/clock.js';

/**
 * MEM-8, seed 000 §臨時授權會過期: `expires` is either a date (after it the memory is not
 * injected and is forgotten first, whatever its category) or a condition text (「本工作階段」,
 * 「PR 合併後失效」) that only the role can judge. Only strict date shapes count as dates:
 * `new Date()` alone would read some condition texts as dates and forget a memory by accident.
 */
const DATE_SHAPE = /^\d{4}[-/]\d{1,2}[-/]\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const DATE_ONLY = /^\d{4}[-/]\d{1,2}[-/]\d{1,2}$/;

/** The moment a date `expires` runs out, or undefined for a condition text or none. */
export function expiryTime(expires: string): Date | undefined {
  const text = expires.trim();
  if (!DATE_SHAPE.test(text)) return undefined;
  const date = parseLooseDate(text);
  if (!date) return undefined;
  // A bare date is valid through that whole local day ("今天" → today's date).
  if (DATE_ONLY.test(text)) return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1);
  return date;
}

export function isExpired(memory: Pick<Memory, 'expires'>, now: Date): boolean {
  const time = expiryTime(memory.expires);
  return time !== undefined && now.getTime() >= time.getTime();
}
